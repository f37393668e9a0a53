package dev.baton.dashboard.protocol;

import java.time.Instant;
import java.util.List;

/** A cycle of sessions each waiting for a file the next one holds; the victim is asked to release. */
public record DeadlockInfo(String id, List<String> sessions, List<String> files, String victim, Instant detectedAt) {

    public DeadlockInfo {
        sessions = sessions == null ? List.of() : List.copyOf(sessions);
        files = files == null ? List.of() : List.copyOf(files);
    }
}
