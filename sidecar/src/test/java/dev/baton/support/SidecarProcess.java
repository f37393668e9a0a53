package dev.baton.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** A sidecar in its own JVM (so it can be SIGKILLed), started from the test classpath on port 0. */
public final class SidecarProcess implements AutoCloseable {

    private final Path home;
    private final Process process;
    private final int port;

    private SidecarProcess(Path home, Process process, int port) {
        this.home = home;
        this.process = process;
        this.port = port;
    }

    public static SidecarProcess start(Path home) {
        return start(home, java.util.Map.of());
    }

    /** @param env settings added to the sidecar's environment (a team's BATON_TEAM_URL, say) */
    public static SidecarProcess start(Path home, java.util.Map<String, String> env) {
        try {
            Files.deleteIfExists(home.resolve("endpoint"));
            ProcessBuilder builder = new BatonCli(home, home).builder("serve", "--port", "0");
            builder.environment().putAll(env);
            builder.redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("sidecar.log").toFile()));
            Process process = builder.start();
            Path endpoint = home.resolve("endpoint");
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !process.isAlive() || (Files.exists(endpoint) && !Files.readString(endpoint).isBlank()));
            if (!process.isAlive()) {
                List<String> log = Files.readAllLines(home.resolve("sidecar.log"));
                throw new IllegalStateException("the sidecar exited with " + process.exitValue() + "; the end of "
                        + home.resolve("sidecar.log") + ":\n" + String.join("\n", log.subList(Math.max(0, log.size() - 5), log.size())));
            }
            String text = Files.readString(endpoint).trim();
            return new SidecarProcess(home, process, Integer.parseInt(text.substring(text.indexOf(':') + 1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public String token() {
        try {
            return Files.readString(home.resolve("token")).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long pid() {
        return process.pid();
    }

    /** SIGSTOP, or SIGCONT when {@code paused} is false: a process frozen as a suspended laptop is. */
    public void pause(boolean paused) {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process signal = new ProcessBuilder("kill", paused ? "-STOP" : "-CONT", Long.toString(process.pid())).start();
            if (!signal.waitFor(30, TimeUnit.SECONDS) || signal.exitValue() != 0) {
                throw new IllegalStateException("could not signal the sidecar " + process.pid());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed. */
    public void kill() {
        Sigkill.of(process, Duration.ofSeconds(30));
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
