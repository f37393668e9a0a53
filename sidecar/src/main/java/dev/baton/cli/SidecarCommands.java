package dev.baton.cli;

import dev.baton.home.BatonHome;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** What every command that talks to a running sidecar shares: where it lives and how to print. */
abstract class SidecarCommands {

    @Option(names = "--json", description = "Print the sidecar's JSON reply instead of sentences.")
    boolean json;

    Map<String, String> env() {
        return System.getenv();
    }

    /** Overrides BATON_HOME for in-process callers (tests), which cannot set environment variables. */
    static final String HOME_PROPERTY = "baton.home";

    BatonHome home() {
        String override = System.getProperty(HOME_PROPERTY);
        return override != null && !override.isBlank() ? new BatonHome(Path.of(override)) : BatonHome.fromEnvironment(env());
    }

    SidecarClient client() {
        return SidecarClient.connect(home());
    }
}
