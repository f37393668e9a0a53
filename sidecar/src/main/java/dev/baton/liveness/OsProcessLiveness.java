package dev.baton.liveness;

import dev.baton.session.ProcStat;
import dev.baton.session.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        Optional<ProcessHandle> handle = ProcessHandle.of(process.pid());
        if (handle.isEmpty() || !handle.get().isAlive() || isZombie(process.pid())) {
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

    /**
     * Whether the kernel lists the pid as a zombie or dead task: the state letter after the command name in
     * {@code /proc/PID/stat} is Z or X. ProcessHandle.isAlive says true for a zombie; no library reads the
     * state, and where there is no /proc (not Linux) the answer is false, as before.
     */
    static boolean isZombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int end = stat.lastIndexOf(')'); // the command name in parentheses may itself hold spaces or ')'
            if (end < 0 || end + 2 >= stat.length()) {
                return false;
            }
            char state = stat.charAt(end + 2);
            return state == 'Z' || state == 'X' || state == 'x';
        } catch (IOException | RuntimeException e) {
            return false; // gone between the checks, or no /proc: isAlive has answered
        }
    }
}
