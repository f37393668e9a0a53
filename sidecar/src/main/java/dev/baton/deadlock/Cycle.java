package dev.baton.deadlock;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One cycle of the wait-for graph: {@code sessions.get(i)} waits for {@code files.get(i)}, held by
 * {@code sessions.get(i + 1)}, and the last waits for the first. It starts at the smallest session
 * id, so one cycle has one spelling.
 */
public record Cycle(List<String> sessions, List<SortedSet<String>> files) {

    public Cycle {
        sessions = List.copyOf(sessions);
        files = List.copyOf(files);
    }

    /** Identity of the deadlock: the sorted member set and the files. */
    public String key() {
        return String.join(",", new TreeSet<>(sessions)) + "|" + String.join(",", allFiles(new TreeSet<>()));
    }

    /** All files of the cycle in cycle order, each edge's files sorted. */
    public List<String> allFiles() {
        return allFiles(new ArrayList<>());
    }

    private <C extends java.util.Collection<String>> C allFiles(C into) {
        files.forEach(into::addAll);
        return into;
    }

    /** The session that {@code session} waits for in this cycle. */
    public String next(String session) {
        int i = sessions.indexOf(session);
        return sessions.get((i + 1) % sessions.size());
    }

    /** The session that waits for {@code session} in this cycle. */
    public String previous(String session) {
        int i = sessions.indexOf(session);
        return sessions.get((i + sessions.size() - 1) % sessions.size());
    }

    /** The files {@code session} waits for, held by its successor. */
    public SortedSet<String> filesWaitedBy(String session) {
        return files.get(sessions.indexOf(session));
    }
}
