package dev.baton.deadlock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Finds the elementary cycles of a wait-for graph with Johnson's algorithm: Tarjan's strongly
 * connected components, then a circuit search from the smallest member of each component of two or
 * more sessions, which is removed before its remainder is split into components again. The cost is
 * O((sessions + edges) × (cycles + 1)); the search stops after {@code limit} cycles so a pathological
 * graph costs bounded time. Both loops use explicit stacks, so a long chain of waits cannot overflow
 * the thread's. Hand-written: ~200 lines over plain maps, where a graph library would add a dependency.
 */
public final class CycleFinder {

    /** The cycles found; {@code complete} is false when the search stopped at its limit. */
    public record Cycles(List<Cycle> cycles, boolean complete) {
    }

    private final String[] names;
    private final int[][] successors;
    private final Map<String, Map<String, SortedSet<String>>> graph;
    private final int limit;
    private final List<Cycle> found = new ArrayList<>();

    private CycleFinder(Map<String, Map<String, SortedSet<String>>> graph, int limit) {
        this.graph = graph;
        this.limit = limit;
        // Only a session that waits and is waited for can be on a cycle.
        Set<String> waitedFor = new HashSet<>();
        graph.values().forEach(targets -> waitedFor.addAll(targets.keySet()));
        TreeSet<String> nodes = new TreeSet<>(graph.keySet());
        nodes.retainAll(waitedFor);
        names = nodes.toArray(new String[0]);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            index.put(names[i], i);
        }
        successors = new int[names.length][];
        for (int i = 0; i < names.length; i++) {
            int[] next = new int[graph.get(names[i]).size()];
            int count = 0;
            for (String target : graph.get(names[i]).keySet()) {
                Integer j = index.get(target);
                if (j != null && j != i) {
                    next[count++] = j;
                }
            }
            successors[i] = Arrays.copyOf(next, count);
            Arrays.sort(successors[i]);
        }
    }

    /** @param graph waiter → (session it waits for → the files it waits for), files non-empty */
    public static Cycles find(Map<String, Map<String, SortedSet<String>>> graph, int limit) {
        CycleFinder finder = new CycleFinder(graph, limit);
        boolean complete = finder.run();
        return new Cycles(List.copyOf(finder.found), complete);
    }

    private boolean run() {
        BitSet all = new BitSet();
        all.set(0, names.length);
        Deque<BitSet> work = new ArrayDeque<>(components(all));
        while (!work.isEmpty()) {
            BitSet component = work.pop();
            int start = component.nextSetBit(0);
            new Circuits(component, start).search();
            if (found.size() >= limit) {
                return false;
            }
            component.clear(start); // every cycle through start is found; look again without it
            work.addAll(components(component));
        }
        return true;
    }

    /** The strongly connected components of two or more sessions among {@code allowed} (Tarjan). */
    private List<BitSet> components(BitSet allowed) {
        int[] index = new int[names.length];
        int[] low = new int[names.length];
        Arrays.fill(index, -1);
        BitSet onStack = new BitSet();
        Deque<Integer> stack = new ArrayDeque<>();
        List<BitSet> components = new ArrayList<>();
        int counter = 0;
        for (int root = allowed.nextSetBit(0); root >= 0; root = allowed.nextSetBit(root + 1)) {
            if (index[root] >= 0) {
                continue;
            }
            Deque<int[]> frames = new ArrayDeque<>(); // {node, next successor position}
            index[root] = low[root] = counter++;
            stack.push(root);
            onStack.set(root);
            frames.push(new int[] {root, 0});
            while (!frames.isEmpty()) {
                int[] frame = frames.peek();
                int node = frame[0];
                if (frame[1] < successors[node].length) {
                    int next = successors[node][frame[1]++];
                    if (!allowed.get(next)) {
                        continue;
                    }
                    if (index[next] < 0) {
                        index[next] = low[next] = counter++;
                        stack.push(next);
                        onStack.set(next);
                        frames.push(new int[] {next, 0});
                    } else if (onStack.get(next)) {
                        low[node] = Math.min(low[node], index[next]);
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    int parent = frames.peek()[0];
                    low[parent] = Math.min(low[parent], low[node]);
                }
                if (low[node] == index[node]) {
                    BitSet component = new BitSet();
                    int member;
                    do {
                        member = stack.pop();
                        onStack.clear(member);
                        component.set(member);
                    } while (member != node);
                    if (component.cardinality() > 1) {
                        components.add(component);
                    }
                }
            }
        }
        return components;
    }

    private void report(int[] path, int length) {
        List<String> sessions = new ArrayList<>(length);
        List<SortedSet<String>> files = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            String from = names[path[i]];
            String to = names[path[(i + 1) % length]];
            sessions.add(from);
            files.add(new TreeSet<>(graph.get(from).get(to)));
        }
        found.add(new Cycle(sessions, files));
    }

    /** Johnson's CIRCUIT: every cycle through {@code start} inside one component, start being its smallest member. */
    private final class Circuits {
        private final BitSet members;
        private final int start;
        private final BitSet blocked = new BitSet();
        private final Map<Integer, BitSet> blockedBy = new HashMap<>();
        private final int[] path;
        private int depth;

        Circuits(BitSet members, int start) {
            this.members = members;
            this.start = start;
            this.path = new int[members.cardinality()];
        }

        void search() {
            Deque<int[]> frames = new ArrayDeque<>(); // {node, next successor position, closed a cycle (0/1)}
            enter(start, frames);
            while (!frames.isEmpty()) {
                int[] frame = frames.peek();
                int node = frame[0];
                if (frame[1] < successors[node].length && found.size() < limit) {
                    int next = successors[node][frame[1]++];
                    if (!members.get(next)) {
                        continue;
                    }
                    if (next == start) {
                        report(path, depth);
                        frame[2] = 1;
                    } else if (!blocked.get(next)) {
                        enter(next, frames);
                    }
                    continue;
                }
                frames.pop();
                if (frame[2] == 1) {
                    unblock(node);
                } else {
                    for (int next : successors[node]) {
                        if (members.get(next)) {
                            blockedBy.computeIfAbsent(next, k -> new BitSet()).set(node);
                        }
                    }
                }
                depth--;
                if (!frames.isEmpty() && frame[2] == 1) {
                    frames.peek()[2] = 1;
                }
            }
        }

        private void enter(int node, Deque<int[]> frames) {
            path[depth++] = node;
            blocked.set(node);
            frames.push(new int[] {node, 0, 0});
        }

        private void unblock(int node) {
            Deque<Integer> pending = new ArrayDeque<>();
            pending.push(node);
            while (!pending.isEmpty()) {
                int current = pending.pop();
                if (!blocked.get(current)) {
                    continue;
                }
                blocked.clear(current);
                BitSet waiting = blockedBy.remove(current);
                if (waiting != null) {
                    waiting.stream().forEach(pending::push);
                }
            }
        }
    }
}
