package dev.baton.dashboard.protocol;

import java.util.List;

/** The {@code snapshot} object of a snapshot frame: everything the sidecar knows at one sequence number. */
public record StateSnapshot(
        List<SessionInfo> sessions,
        List<LockInfo> locks,
        List<NamedLockInfo> namedLocks,
        List<WaitInfo> waits,
        List<NegotiationInfo> negotiations,
        List<DeadlockInfo> deadlocks) {

    public StateSnapshot {
        sessions = sessions == null ? List.of() : List.copyOf(sessions);
        locks = locks == null ? List.of() : List.copyOf(locks);
        namedLocks = namedLocks == null ? List.of() : List.copyOf(namedLocks);
        waits = waits == null ? List.of() : List.copyOf(waits);
        negotiations = negotiations == null ? List.of() : List.copyOf(negotiations);
        deadlocks = deadlocks == null ? List.of() : List.copyOf(deadlocks);
    }
}
