package dev.baton.cli;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton stop}: asks the sidecar of this BATON_HOME to stop (SIGTERM, as Ctrl-C would) and waits until it
 * has finished writing its state and removed its endpoint and pid files.
 */
@Command(name = "stop", description = {"Stop the sidecar of this BATON_HOME and wait until it has exited.",
        "It answers the requests under way, commits its state and removes its endpoint and pid files;"
                + " locks stay held and are there again when it next starts."})
final class StopCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to wait for it to exit (default 30).")
    int waitSeconds;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (waitSeconds < 1) {
            throw new CliException("--wait must be at least 1 second");
        }
        BatonHome home = home();
        PrintWriter out = spec.commandLine().getOut();
        Optional<ProcessHandle> sidecar;
        try {
            sidecar = home.runningSidecar();
        } catch (IOException e) {
            throw new CliException(e.getMessage());
        }
        if (sidecar.isEmpty()) {
            out.println("no sidecar is running for " + home.dir());
            return 0;
        }
        ProcessHandle process = sidecar.get();
        String endpoint = home.readEndpoint().orElse("not serving yet");
        if (!process.destroy()) {
            throw new CliException("could not signal the sidecar (pid " + process.pid() + "); stop it with `kill "
                    + process.pid() + "`");
        }
        try {
            process.onExit().get(waitSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new CliException("the sidecar (pid " + process.pid() + ") is still running after " + waitSeconds
                    + " s; wait longer with --wait, or see " + home.logFile());
        } catch (ExecutionException e) {
            throw new CliException("waiting for the sidecar (pid " + process.pid() + ") failed: " + e.getMessage());
        }
        out.println("stopped the sidecar (pid " + process.pid() + ", " + endpoint + ")");
        return 0;
    }
}
