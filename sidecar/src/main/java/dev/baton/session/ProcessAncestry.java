package dev.baton.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Walks a live process's parents, as the operating system reports them, to find a given process among them. */
public final class ProcessAncestry {

    /** Start instants come from clock ticks since boot; allow for rounding between readers. */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(1);
    private static final int MAX_DEPTH = 64;

    private ProcessAncestry() {
    }

    /**
     * True when {@code caller} is running with the given start instant and {@code ancestor} is it
     * or one of its ancestors (same pid and, when both are known, the same start instant).
     */
    public static boolean descendsFrom(SessionProof.Descendant caller, ProcessIdentity ancestor) {
        Optional<ProcessHandle> process = ProcessHandle.of(caller.pid());
        if (process.isEmpty() || !sameStart(caller.startedAt(), process.get().info().startInstant().orElse(null))) {
            return false;
        }
        for (int depth = 0; depth < MAX_DEPTH && process.isPresent(); depth++) {
            ProcessHandle handle = process.get();
            if (handle.pid() == ancestor.pid()
                    && sameStart(ancestor.startedAt(), handle.info().startInstant().orElse(null))) {
                return true;
            }
            process = handle.parent();
        }
        return false;
    }

    private static boolean sameStart(Instant claimed, Instant actual) {
        if (claimed == null || actual == null) {
            return true; // the OS could not tell; the pid has to do
        }
        return Duration.between(claimed, actual).abs().compareTo(START_TOLERANCE) <= 0;
    }
}
