package dev.baton.dashboard.graph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where each session sits in the wait-for graph. A session keeps its slot for as long as it exists and a
 * newcomer takes the lowest free one, so the picture never reshuffles as waits come and go.
 * Slots lie on rings around the centre, spread so that the first few are far apart.
 */
public final class GraphLayout {

    /** A position in units of the first ring's radius, centre at (0, 0). */
    public record Point(double x, double y) {
    }

    private static final int[] SPREAD = {0, 4, 2, 6, 1, 5, 3, 7};

    private final Map<String, Integer> slots = new HashMap<>();

    /** Updates the slots for the sessions now present and returns every one's position. */
    public Map<String, Point> place(List<String> ids) {
        slots.keySet().retainAll(Set.copyOf(ids));
        TreeSet<Integer> taken = new TreeSet<>(slots.values());
        for (String id : ids) {
            if (!slots.containsKey(id)) {
                int slot = 0;
                while (taken.contains(slot)) {
                    slot++;
                }
                slots.put(id, slot);
                taken.add(slot);
            }
        }
        Map<String, Point> points = new HashMap<>();
        ids.forEach(id -> points.put(id, pointOf(slots.get(id))));
        return points;
    }

    /** The outermost ring radius in use, so a view can scale to fit. */
    public double extent() {
        return slots.values().stream().mapToDouble(slot -> radiusOf(ringOf(slot)[0])).max().orElse(1.0);
    }

    static Point pointOf(int slot) {
        int[] ring = ringOf(slot);
        int ringIndex = ring[0];
        int position = ring[1];
        int size = ringSize(ringIndex);
        int spreadPosition = size == SPREAD.length ? SPREAD[position] : position;
        // Start on the left so two sessions sit side by side, like a sentence: A waits for B.
        double angle = Math.PI + 2 * Math.PI * spreadPosition / size + (ringIndex % 2 == 1 ? Math.PI / size : 0);
        double radius = radiusOf(ringIndex);
        return new Point(radius * Math.cos(angle), radius * Math.sin(angle));
    }

    private static int[] ringOf(int slot) {
        int ringIndex = 0;
        int remaining = slot;
        while (remaining >= ringSize(ringIndex)) {
            remaining -= ringSize(ringIndex);
            ringIndex++;
        }
        return new int[] {ringIndex, remaining};
    }

    private static int ringSize(int ringIndex) {
        return 8 + 6 * ringIndex;
    }

    private static double radiusOf(int ringIndex) {
        return 1.0 + 0.75 * ringIndex;
    }
}
