package dev.baton.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** A real, separate OS process (sleep) to stand in for an agent whose liveness is checked. */
public final class ChildProcess implements AutoCloseable {

    private final Process process;

    private ChildProcess(Process process) {
        this.process = process;
    }

    public static ChildProcess sleeping() {
        try {
            return new ChildProcess(new ProcessBuilder("sleep", "300").start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public void kill() {
        Sigkill.of(process, Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
