package dev.baton.deadlock;

import java.util.Map;
import java.util.SortedSet;

/** A deadlock that is still there: its cycle, what clients see, and what its members are told. */
final class OpenDeadlock {

    final Cycle cycle;
    final Deadlock deadlock;
    final DeadlockAdvice advice;
    final String note;
    /** The advice goes out once, on the victim's next hook call; read and set under the ledger. */
    boolean adviceTaken;

    OpenDeadlock(Cycle cycle, Deadlock deadlock, DeadlockAdvice advice, String note) {
        this.cycle = cycle;
        this.deadlock = deadlock;
        this.advice = advice;
        this.note = note;
    }

    String key() {
        return cycle.key();
    }

    boolean involves(String session) {
        return cycle.sessions().contains(session);
    }

    boolean involvesFile(String file) {
        return cycle.files().stream().anyMatch(files -> files.contains(file));
    }

    /** True while every edge of the cycle is in {@code edges} with the same files. */
    boolean stillIn(Map<String, Map<String, SortedSet<String>>> edges) {
        for (String session : cycle.sessions()) {
            SortedSet<String> now = edges.getOrDefault(session, Map.of()).get(cycle.next(session));
            if (now == null || !now.equals(cycle.filesWaitedBy(session))) {
                return false;
            }
        }
        return true;
    }
}
