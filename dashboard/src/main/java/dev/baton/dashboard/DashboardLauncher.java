package dev.baton.dashboard;

import javafx.application.Application;
import picocli.CommandLine;

/**
 * The jar's entry point. A plain class, not the Application subclass: JavaFX refuses to start from a
 * classpath jar whose main class extends Application.
 */
public final class DashboardLauncher {

    private DashboardLauncher() {
    }

    public static void main(String[] args) {
        CommandLine line = new CommandLine(new DashboardOptions());
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
            DashboardOptions.parse(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println("baton dashboard: " + e.getMessage());
            e.getCommandLine().usage(System.err);
            System.exit(2);
        }
        Application.launch(DashboardApp.class, args);
    }
}
