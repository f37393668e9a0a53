package dev.baton.dashboard.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Tarjan's strongly connected components; a component with a cycle in it is a deadlock. */
final class StrongComponents {

    private final Map<String, List<String>> successors;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new java.util.HashSet<>();
    private final List<Set<String>> cyclic = new ArrayList<>();
    private int counter;

    StrongComponents(Map<String, List<String>> successors) {
        this.successors = successors;
    }

    /** The components that contain a cycle: two or more nodes, or one node waiting for itself. */
    List<Set<String>> cyclic() {
        for (String node : successors.keySet()) {
            if (!index.containsKey(node)) {
                visit(node);
            }
        }
        return cyclic;
    }

    // Recursive: wait-for graphs have a handful of sessions, far from any stack limit.
    private void visit(String node) {
        index.put(node, counter);
        low.put(node, counter);
        counter++;
        stack.push(node);
        onStack.add(node);
        for (String next : successors.getOrDefault(node, List.of())) {
            if (!index.containsKey(next)) {
                visit(next);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new LinkedHashSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1 || successors.getOrDefault(node, List.of()).contains(node)) {
                cyclic.add(component);
            }
        }
    }
}
