package dev.baton.dashboard.graph;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.DeadlockInfo;
import dev.baton.dashboard.protocol.SessionInfo;
import dev.baton.dashboard.protocol.WaitInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The wait-for graph as drawn: sessions as nodes, an edge A→B labelled with the files A waits for that
 * B holds. Edges on a cycle are deadlock edges. The sidecar's reported deadlocks name the victim; a
 * cycle in the waits it has not reported yet is marked too (victim: the youngest session, the
 * sidecar's rule), so the picture never depends on the detector's timing.
 */
public record WaitGraph(List<Node> nodes, List<Edge> edges) {

    public record Node(String id, String label, String agent, boolean inDeadlock, boolean victim) {
    }

    public record Edge(String from, String to, List<String> files, boolean deadlock) {
    }

    public static WaitGraph empty() {
        return new WaitGraph(List.of(), List.of());
    }

    public static WaitGraph of(Board board) {
        Map<String, SessionInfo> sessions = new LinkedHashMap<>();
        board.sessions().forEach(s -> sessions.put(s.id(), s));
        Map<String, Set<String>> filesByEdge = new LinkedHashMap<>();
        Set<String> ids = new java.util.LinkedHashSet<>(sessions.keySet());
        for (WaitInfo wait : board.waits()) {
            if (wait.waiter() == null || wait.holder() == null) {
                continue;
            }
            ids.add(wait.waiter());
            ids.add(wait.holder());
            filesByEdge.computeIfAbsent(wait.waiter() + "\u0000" + wait.holder(), k -> new TreeSet<>())
                    .add(board.shownPath(wait.file(), wait.holder()));
        }
        Set<String> cycleEdges = new HashSet<>();
        Set<String> inDeadlock = new HashSet<>();
        Set<String> victims = new HashSet<>();
        for (DeadlockInfo deadlock : board.deadlocks()) {
            List<String> cycle = deadlock.sessions();
            boolean fileByEdge = deadlock.files() != null && deadlock.files().size() == cycle.size();
            for (int i = 0; i < cycle.size(); i++) {
                String edge = cycle.get(i) + "\u0000" + cycle.get((i + 1) % cycle.size());
                cycleEdges.add(edge);
                ids.add(cycle.get(i));
                // A cycle through other machines has edges this sidecar holds no wait for: drawn from the report.
                Set<String> files = filesByEdge.computeIfAbsent(edge, k -> new TreeSet<>());
                if (files.isEmpty() && fileByEdge) {
                    files.add(board.shownPath(deadlock.files().get(i), cycle.get((i + 1) % cycle.size())));
                }
            }
            inDeadlock.addAll(cycle);
            if (deadlock.victim() != null) {
                victims.add(deadlock.victim());
            }
        }
        Map<String, List<String>> successors = new LinkedHashMap<>();
        filesByEdge.keySet().forEach(key -> {
            String[] ends = key.split("\u0000", 2);
            successors.computeIfAbsent(ends[0], k -> new ArrayList<>()).add(ends[1]);
        });
        for (Set<String> component : new StrongComponents(successors).cyclic()) {
            filesByEdge.keySet().forEach(key -> {
                String[] ends = key.split("\u0000", 2);
                if (component.contains(ends[0]) && component.contains(ends[1])) {
                    cycleEdges.add(key);
                }
            });
            boolean reported = component.stream().anyMatch(inDeadlock::contains);
            inDeadlock.addAll(component);
            if (!reported) {
                component.stream()
                        .max(Comparator.comparing((String id) -> startedAt(sessions.get(id))).thenComparing(id -> id))
                        .ifPresent(victims::add);
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (String id : ids) {
            SessionInfo s = sessions.get(id);
            nodes.add(new Node(id, board.label(id), s == null ? null : s.agent(), inDeadlock.contains(id), victims.contains(id)));
        }
        List<Edge> edges = new ArrayList<>();
        filesByEdge.forEach((key, files) -> {
            String[] ends = key.split("\u0000", 2);
            edges.add(new Edge(ends[0], ends[1], List.copyOf(files), cycleEdges.contains(key)));
        });
        return new WaitGraph(List.copyOf(nodes), List.copyOf(edges));
    }

    public boolean hasDeadlock() {
        return edges.stream().anyMatch(Edge::deadlock);
    }

    private static Instant startedAt(SessionInfo session) {
        return session == null || session.startedAt() == null ? Instant.EPOCH : session.startedAt();
    }
}
