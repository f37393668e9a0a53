package dev.baton.deadlock;

import java.time.Instant;
import java.util.List;

/**
 * A cycle of sessions each waiting for a file the next one holds, as clients see it: the sessions in
 * cycle order, the files in the same order, and the victim (the youngest session), asked to give way.
 */
public record Deadlock(String id, List<String> sessions, List<String> files, String victim, Instant detectedAt) {

    public Deadlock {
        sessions = List.copyOf(sessions);
        files = List.copyOf(files);
    }
}
