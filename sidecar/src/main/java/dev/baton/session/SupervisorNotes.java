package dev.baton.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the supervising person did to a session (freed one of its files, ended it), told to that session on its
 * next hook call, once. Kept in memory: the audit log is the durable record, this is only the telling.
 */
public final class SupervisorNotes {

    private static final int MAX_PER_SESSION = 20;

    private final Map<String, List<String>> pending = new ConcurrentHashMap<>();

    public void tell(String sessionId, String text) {
        pending.compute(sessionId, (id, lines) -> {
            List<String> kept = lines == null ? new ArrayList<>() : lines;
            if (kept.size() < MAX_PER_SESSION) {
                kept.add("Baton: " + text);
            }
            return kept;
        });
    }

    public List<String> take(String sessionId) {
        List<String> lines = pending.remove(sessionId);
        return lines == null ? List.of() : lines;
    }
}
