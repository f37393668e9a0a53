package dev.baton.liveness;

import dev.baton.session.ProcStat;
import dev.baton.session.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Liveness from the operating system's process table. A pid whose start instant differs from the
 * recorded one belongs to another process (the pid was reused), so the holder has exited. A zombie
 * ({@code <defunct>}: exited, not yet reaped by its parent) has exited too, though its pid still shows.
 */
public final class OsProcessLiveness implements ProcessLiveness {

    /** Start instants come from clock ticks since boot; allow for rounding between readers. */
    private static final Duration START_TOLERANCE = Duration.ofMillis(1000);

    @Override
    public Liveness of(ProcessIdentity process) {
        if (process == null) {
            return Liveness.UNKNOWN;
        }
        if (ProcStat.available()) {
            Optional<ProcStat> stat = ProcStat.of(process.pid());
            if (stat.isEmpty() || stat.get().exited()) {
                return Liveness.EXITED;
            }
            if (process.startedAt() == null) {
                return Liveness.UNKNOWN;
            }
            return Duration.between(process.startedAt(), stat.get().started()).abs().compareTo(START_TOLERANCE) <= 0
                    ? Liveness.ALIVE : Liveness.EXITED;
        }
        // No /proc (not Linux): the JDK's view, where a zombie may still count as alive.
        Optional<ProcessHandle> handle = ProcessHandle.of(process.pid());
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return Liveness.EXITED;
        }
        Instant recorded = process.startedAt();
        Optional<Instant> actual = handle.get().info().startInstant();
        if (recorded == null || actual.isEmpty()) {
            return Liveness.UNKNOWN;
        }
        Duration drift = Duration.between(recorded, actual.get()).abs();
        return drift.compareTo(START_TOLERANCE) <= 0 ? Liveness.ALIVE : Liveness.EXITED;
    }
}
