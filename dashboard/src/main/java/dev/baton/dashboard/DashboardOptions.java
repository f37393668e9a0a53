package dev.baton.dashboard;

import dev.baton.dashboard.connection.SidecarLocator;
import dev.baton.dashboard.view.Page;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The command line of {@code baton dashboard}. */
@Command(name = "baton dashboard", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Shows the sidecar's sessions, locks, waits, negotiations and deadlocks live, and lets you free locks.")
public final class DashboardOptions {

    @Option(names = "--url", paramLabel = "URL", description = "The sidecar's address, e.g. http://127.0.0.1:7433 (default: $BATON_HOME/endpoint).")
    String url;

    @Option(names = "--token", paramLabel = "TOKEN", description = "The sidecar's token (default: $BATON_HOME/token).")
    String token;

    @Option(names = "--home", paramLabel = "DIR", description = "The BATON_HOME to find the sidecar in (default: $BATON_HOME, else ~/.local/state/baton).")
    Path home;

    @Option(names = "--theme", paramLabel = "dark|light", description = "Colour theme (default: ${DEFAULT-VALUE}).", defaultValue = "dark")
    String theme;

    @Option(names = "--page", paramLabel = "PAGE", description = "The page to open: overview, sessions, locks, team, negotiations, messages, activity.", defaultValue = "overview")
    String page;

    @Option(names = "--screenshot", paramLabel = "FILE.png", description = "Render the window against the live sidecar into FILE.png and exit.")
    Path screenshot;

    @Option(names = "--size", paramLabel = "WxH", description = "Window size (default: ${DEFAULT-VALUE}).", defaultValue = "1440x900")
    String size;

    /** Parses and checks the arguments; a usage error is a {@link CommandLine.ParameterException}. */
    public static DashboardOptions parse(String... args) {
        DashboardOptions options = new DashboardOptions();
        CommandLine line = new CommandLine(options);
        line.parseArgs(args);
        options.validate(line);
        return options;
    }

    private void validate(CommandLine line) {
        if (url != null && token == null) {
            throw new CommandLine.ParameterException(line, "--url needs --token too (the token is in $BATON_HOME/token)");
        }
        if (!theme.equals("dark") && !theme.equals("light")) {
            throw new CommandLine.ParameterException(line, "--theme must be dark or light, was '" + theme + "'");
        }
        try {
            Page.named(page);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(line, "--page must be one of overview, sessions, locks, team, negotiations, messages, activity; was '" + page + "'");
        }
        if (!size.matches("\\d{3,5}x\\d{3,5}")) {
            throw new CommandLine.ParameterException(line, "--size must look like 1440x900, was '" + size + "'");
        }
    }

    public SidecarLocator locator(Map<String, String> env) {
        if (url != null) {
            return SidecarLocator.fixed(url, token);
        }
        return SidecarLocator.home(home != null ? home : SidecarLocator.defaultHome(env));
    }

    public boolean dark() {
        return theme.equals("dark");
    }

    public Page page() {
        return Page.named(page);
    }

    public Path screenshot() {
        return screenshot;
    }

    public double width() {
        return Double.parseDouble(size.substring(0, size.indexOf('x')));
    }

    public double height() {
        return Double.parseDouble(size.substring(size.indexOf('x') + 1));
    }
}
