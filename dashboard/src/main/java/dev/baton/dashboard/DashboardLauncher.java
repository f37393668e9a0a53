package dev.baton.dashboard;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Application;
import picocli.CommandLine;

/**
 * The jar's entry point. A plain class, not the Application subclass: JavaFX refuses to start from a
 * classpath jar whose main class extends Application.
 */
public final class DashboardLauncher {

    /**
     * JavaFX warns "Unsupported JavaFX configuration: classes were loaded from 'unnamed module'" whenever it runs
     * from the classpath, which the single dashboard jar does on purpose; held here so the level setting stays.
     */
    private static final Logger JAVAFX_LOG = Logger.getLogger("javafx");

    private DashboardLauncher() {
    }

    public static void main(String[] args) {
        CommandLine line = new CommandLine(new DashboardOptions());
        DashboardOptions options;
        try {
            line.parseArgs(args);
            if (line.isUsageHelpRequested()) {
                line.usage(System.out);
                return;
            }
            if (line.isVersionHelpRequested()) {
                System.out.println("baton dashboard");
                return;
            }
            options = DashboardOptions.parse(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println("baton dashboard: " + e.getMessage());
            e.getCommandLine().usage(System.err);
            System.exit(2);
            return;
        }
        JAVAFX_LOG.setLevel(Level.SEVERE);
        if (!hasDisplay(System.getenv())) {
            if (options.screenshot() == null) {
                System.err.println("baton dashboard: there is no display to open the window on (neither DISPLAY nor"
                        + " WAYLAND_DISPLAY is set). Run it in a desktop session, over `ssh -X`, or under `xvfb-run`;"
                        + " or render the window into a picture without a display with"
                        + " `baton dashboard --screenshot FILE.png`.");
                System.exit(2);
                return;
            }
            renderWithoutDisplay(options);
        }
        try {
            Application.launch(DashboardApp.class, args);
        } catch (RuntimeException e) {
            System.err.println("baton dashboard: the window cannot open (" + rootMessage(e) + "). Check that DISPLAY"
                    + " names a running X server, or render a picture with `baton dashboard --screenshot FILE.png`.");
            System.exit(2);
        }
    }

    static boolean hasDisplay(Map<String, String> env) {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        if (os.contains("win") || os.contains("mac")) {
            return true;
        }
        return !env.getOrDefault("DISPLAY", "").isBlank() || !env.getOrDefault("WAYLAND_DISPLAY", "").isBlank();
    }

    /** JavaFX's headless platform (Monocle) with the software renderer: the screenshot needs no X server. */
    private static void renderWithoutDisplay(DashboardOptions options) {
        // The headless screen must hold the whole window, or painting it overflows the screen's buffer.
        System.setProperty("headless.geometry", (int) Math.max(1280, options.width()) + "x"
                + (int) Math.max(800, options.height()) + "-32");
        System.setProperty("glass.platform", "Monocle");
        System.setProperty("monocle.platform", "Headless");
        System.setProperty("prism.order", "sw");
        System.setProperty("java.awt.headless", "true");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
