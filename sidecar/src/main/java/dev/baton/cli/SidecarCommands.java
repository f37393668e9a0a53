package dev.baton.cli;

import dev.baton.home.BatonHome;
import java.util.Map;
import picocli.CommandLine.Option;

/** What every command that talks to a running sidecar shares: where it lives and how to print. */
abstract class SidecarCommands {

    @Option(names = "--json", description = "Print the sidecar's JSON reply instead of sentences.")
    boolean json;

    Map<String, String> env() {
        return System.getenv();
    }

    BatonHome home() {
        return BatonHome.fromEnvironment(env());
    }

    SidecarClient client() {
        return SidecarClient.connect(home());
    }
}
