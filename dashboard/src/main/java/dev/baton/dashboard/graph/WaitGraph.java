package dev.baton.dashboard.graph;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.model.SharedFiles;
import dev.baton.dashboard.protocol.DeadlockInfo;
import dev.baton.dashboard.protocol.LockInfo;
import dev.baton.dashboard.protocol.SessionInfo;
import dev.baton.dashboard.protocol.WaitInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The wait-for graph as drawn: sessions as nodes, an edge A→B labelled with the files A waits for that
 * B holds. Edges on a cycle are deadlock edges. The sidecar's reported deadlocks name the victim; a
 * cycle in the waits it has not reported yet is marked too (victim: the youngest session, the
 * sidecar's rule), so the picture never depends on the detector's timing. Apart from the waits, an
 * overlap joins two sessions that change the same file in two copies of its repository (worktrees or
 * clones): nobody waits, but their changes will meet at merge time.
 */
public record WaitGraph(List<Node> nodes, List<Edge> edges, List<Overlap> overlaps) {

    public record Node(String id, String label, String agent, boolean inDeadlock, boolean victim) {
    }

    public record Edge(String from, String to, List<String> files, boolean deadlock) {
    }

    /**
     * Two sessions holding the same files of a repository in two of its copies; undirected ({@code one} sorts
     * before {@code other}).
     *
     * @param paths the files' repository paths
     */
    public record Overlap(String one, String other, List<String> paths) {
    }

    public WaitGraph {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
        overlaps = List.copyOf(overlaps);
    }

    public WaitGraph(List<Node> nodes, List<Edge> edges) {
        this(nodes, edges, List.of());
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
        Map<String, Set<String>> pathsByOverlap = overlaps(board);
        pathsByOverlap.keySet().forEach(key -> ids.addAll(List.of(key.split("\u0000", 2))));
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
            nodes.add(new Node(id, board.nameOrShortId(id), s == null ? null : s.agent(), inDeadlock.contains(id), victims.contains(id)));
        }
        List<Edge> edges = new ArrayList<>();
        filesByEdge.forEach((key, files) -> {
            String[] ends = key.split("\u0000", 2);
            edges.add(new Edge(ends[0], ends[1], List.copyOf(files), cycleEdges.contains(key)));
        });
        List<Overlap> overlaps = new ArrayList<>();
        pathsByOverlap.forEach((key, paths) -> {
            String[] ends = key.split("\u0000", 2);
            overlaps.add(new Overlap(ends[0], ends[1], List.copyOf(paths)));
        });
        return new WaitGraph(nodes, edges, overlaps);
    }

    /** The repository paths each pair of sessions holds in two copies, keyed "ONE\0OTHER" with ONE sorting first. */
    private static Map<String, Set<String>> overlaps(Board board) {
        Map<String, Set<String>> paths = new TreeMap<>();
        for (List<LockInfo> group : SharedFiles.of(board.locks()).groups()) {
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    LockInfo a = group.get(i);
                    LockInfo b = group.get(j);
                    String one = a.holderSession();
                    String other = b.holderSession();
                    // One session in two worktrees conflicts with nobody but itself; it has no one to be joined to.
                    if (one == null || other == null || one.equals(other)
                            || Objects.equals(a.copy().worktree(), b.copy().worktree())) {
                        continue;
                    }
                    String key = one.compareTo(other) < 0 ? one + "\u0000" + other : other + "\u0000" + one;
                    paths.computeIfAbsent(key, k -> new TreeSet<>()).add(a.copy().path());
                }
            }
        }
        return paths;
    }

    public boolean hasOverlap() {
        return !overlaps.isEmpty();
    }

    public boolean hasDeadlock() {
        return edges.stream().anyMatch(Edge::deadlock);
    }

    private static Instant startedAt(SessionInfo session) {
        return session == null || session.startedAt() == null ? Instant.EPOCH : session.startedAt();
    }
}
