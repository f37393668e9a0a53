package dev.baton.server;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The sidecar that holds BATON_HOME's lock when a start finds it taken: most often one started at the same moment
 * (a hook and an MCP server of one agent each found none and started one). The later start waits until that one
 * serves, and takes its place if it gives up without serving.
 */
public final class OtherSidecar {

    /** How often the waiting start looks again: a start takes a second or more, a look a few file reads. */
    private static final Duration LOOK_EVERY = Duration.ofMillis(50);
    private static final int CONNECT_TIMEOUT_MS = 500;

    /** What waiting for the other sidecar came to. */
    public sealed interface Outcome permits Serving, Gone, Stuck {
    }

    /** It serves: {@code message} says so, for a person who asked for a sidecar of their own. */
    public record Serving(long pid, String endpoint, String message) implements Outcome {
    }

    /** It let go of the home without serving (its start failed): this start may take its place. */
    public record Gone() implements Outcome {
    }

    /** It held the home the whole time without serving. */
    public record Stuck(String message) implements Outcome {
    }

    private OtherSidecar() {
    }

    /** Waits until the sidecar holding {@code home}'s lock serves, lets go, or {@code atMost} has passed. */
    public static Outcome await(BatonHome home, Duration atMost) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        try (FileChannel channel = FileChannel.open(home.lockFile(), StandardOpenOption.WRITE)) {
            while (true) {
                if (!isHeld(channel)) {
                    return new Gone();
                }
                Optional<Serving> serving = serving(home);
                if (serving.isPresent()) {
                    return serving.get();
                }
                if (System.nanoTime() > deadline) {
                    return new Stuck("a sidecar (pid " + pid(home).map(Object::toString).orElse("unknown") + ") has held "
                            + home.lockFile() + " for " + atMost.toSeconds() + " s without serving; see its lines above"
                            + " in " + home.logFile() + ", or stop it with `baton stop`");
                }
                Thread.sleep(LOOK_EVERY.toMillis()); // the other process writes files; there is no event to wait on
            }
        }
    }

    private static boolean isHeld(FileChannel channel) throws IOException {
        FileLock probe;
        try {
            probe = channel.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            return true; // a sidecar in this JVM holds it
        }
        if (probe == null) {
            return true;
        }
        probe.release();
        return false;
    }

    /**
     * Serving: it announced an endpoint, the process its pid file names lives, and the endpoint takes connections. A
     * crashed sidecar's endpoint file stays behind, so the file alone proves nothing.
     */
    private static Optional<Serving> serving(BatonHome home) throws IOException {
        Optional<Integer> port = home.readEndpointPort();
        Optional<Long> pid = pid(home);
        if (port.isEmpty() || pid.isEmpty() || !ProcessHandle.of(pid.get()).map(ProcessHandle::isAlive).orElse(false)) {
            return Optional.empty();
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(BatonHome.LOOPBACK, port.get()), CONNECT_TIMEOUT_MS);
        } catch (IOException notYet) {
            return Optional.empty();
        }
        String endpoint = BatonHome.LOOPBACK + ":" + port.get();
        return Optional.of(new Serving(pid.get(), endpoint, "a sidecar is already running on " + home.dir() + " (pid "
                + pid.get() + ", endpoint " + endpoint + "); stop it first or use another BATON_HOME"));
    }

    private static Optional<Long> pid(BatonHome home) throws IOException {
        OptionalLong pid = home.readPid();
        return pid.isPresent() ? Optional.of(pid.getAsLong()) : Optional.empty();
    }
}
