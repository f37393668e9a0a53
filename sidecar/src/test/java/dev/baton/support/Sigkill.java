package dev.baton.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** SIGKILL for a child process: no shutdown hook runs, nothing is flushed, and it is gone when this returns. */
public final class Sigkill {

    private Sigkill() {
    }

    public static void of(Process process, Duration within) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("process " + process.pid() + " survived SIGKILL for " + within);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
