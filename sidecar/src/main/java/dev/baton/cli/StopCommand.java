package dev.baton.cli;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
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
        Optional<ProcessHandle> sidecar = runningSidecar(home);
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

    /**
     * The sidecar that holds BATON_HOME's lock, if one does. The pid file alone could name a process that reused the
     * pid of a sidecar that was killed; the lock is held only while a sidecar lives.
     */
    private static Optional<ProcessHandle> runningSidecar(BatonHome home) throws IOException, InterruptedException {
        if (!Files.exists(home.lockFile())) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(home.lockFile(), StandardOpenOption.WRITE)) {
            FileLock probe = channel.tryLock();
            if (probe != null) {
                probe.release();
                return Optional.empty();
            }
        }
        // A starting sidecar writes its pid file just after taking the lock.
        for (int attempt = 0; attempt < 100 && !Files.exists(home.pidFile()); attempt++) {
            Thread.sleep(50); // polls a file another process writes; no event to wait on
        }
        String pid = Files.exists(home.pidFile()) ? Files.readString(home.pidFile()).trim() : "";
        try {
            return ProcessHandle.of(Long.parseLong(pid));
        } catch (NumberFormatException e) {
            throw new CliException("a sidecar holds " + home.lockFile() + " but its pid file " + home.pidFile()
                    + " is missing or unreadable ('" + pid + "'); stop it by hand");
        }
    }
}
