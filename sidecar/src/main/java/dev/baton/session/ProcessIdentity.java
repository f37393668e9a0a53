package dev.baton.session;

import java.time.Instant;

/**
 * A process as the operating system knows it: a pid alone can be reused, so the start instant
 * is kept with it and a live pid with another start instant is a different process.
 */
public record ProcessIdentity(long pid, Instant startedAt) {

    public ProcessIdentity {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive, was " + pid);
        }
    }

    /** The identity of a running process as the OS reports it now, or null when it is not running. */
    public static ProcessIdentity ofRunning(long pid) {
        return ProcessHandle.of(pid)
                .map(handle -> new ProcessIdentity(pid, handle.info().startInstant().orElse(null)))
                .orElse(null);
    }

    /** True when both name one process: the same pid and start instants within rounding (both unknown counts as same). */
    public static boolean same(ProcessIdentity a, ProcessIdentity b) {
        return a != null && b != null && a.pid() == b.pid()
                && (a.startedAt() == null || b.startedAt() == null ? a.startedAt() == b.startedAt()
                        : ProcessAncestry.sameStart(a.startedAt(), b.startedAt()));
    }

    public static ProcessIdentity current() {
        return ofRunning(ProcessHandle.current().pid());
    }
}
