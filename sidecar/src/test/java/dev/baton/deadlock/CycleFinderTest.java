package dev.baton.deadlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CycleFinderTest {

    private final Map<String, Map<String, SortedSet<String>>> graph = new TreeMap<>();

    private void waits(String waiter, String holder, String... files) {
        graph.computeIfAbsent(waiter, w -> new TreeMap<>()).computeIfAbsent(holder, h -> new TreeSet<>())
                .addAll(List.of(files));
    }

    private List<Cycle> cycles() {
        return CycleFinder.find(graph, 100).cycles();
    }

    @Test
    void aChainOfWaitsIsNoCycle() {
        waits("a", "b", "B.java");
        waits("b", "c", "C.java");
        waits("d", "c", "C2.java");
        assertThat(cycles()).isEmpty();
    }

    @Test
    void twoSessionsWaitingForEachOtherAreOneCycleStartingAtTheSmallestId() {
        waits("b", "a", "A.java");
        waits("a", "b", "B1.java", "B2.java");
        List<Cycle> cycles = cycles();
        assertThat(cycles).hasSize(1);
        assertThat(cycles.get(0).sessions()).containsExactly("a", "b");
        assertThat(cycles.get(0).allFiles()).containsExactly("B1.java", "B2.java", "A.java");
        assertThat(cycles.get(0).key()).isEqualTo("a,b|A.java,B1.java,B2.java");
    }

    @Test
    void aLongRingIsFoundWithItsMembersInOrder() {
        String[] ring = {"s3", "s0", "s4", "s1", "s2"};
        for (int i = 0; i < ring.length; i++) {
            waits(ring[i], ring[(i + 1) % ring.length], ring[(i + 1) % ring.length] + ".java");
        }
        waits("x", "s0", "s0.java");
        List<Cycle> cycles = cycles();
        assertThat(cycles).hasSize(1);
        assertThat(cycles.get(0).sessions()).containsExactly("s0", "s4", "s1", "s2", "s3");
        assertThat(cycles.get(0).next("s3")).isEqualTo("s0");
        assertThat(cycles.get(0).previous("s0")).isEqualTo("s3");
        assertThat(cycles.get(0).filesWaitedBy("s2")).containsExactly("s3.java");
    }

    @Test
    void everyElementaryCycleOfAComponentIsFoundOnce() {
        waits("a", "b", "B.java");
        waits("b", "a", "A.java");
        waits("b", "c", "C.java");
        waits("c", "a", "A.java");
        waits("c", "b", "B.java");
        assertThat(cycles()).extracting(Cycle::sessions)
                .containsExactlyInAnyOrder(List.of("a", "b"), List.of("a", "b", "c"), List.of("b", "c"));
    }

    @Test
    void theSearchStopsAtItsLimitAndSaysSo() {
        String[] nodes = {"a", "b", "c", "d", "e", "f"};
        for (String from : nodes) {
            for (String to : nodes) {
                if (!from.equals(to)) {
                    waits(from, to, to + ".java");
                }
            }
        }
        CycleFinder.Cycles found = CycleFinder.find(graph, 10);
        assertThat(found.complete()).isFalse();
        assertThat(found.cycles()).hasSize(10);
        assertThat(CycleFinder.find(graph, 10_000).complete()).isTrue();
        assertThat(CycleFinder.find(graph, 10_000).cycles()).hasSize(409);
    }

    @Test
    void aDeepChainDoesNotOverflowTheStack() {
        for (int i = 0; i < 20_000; i++) {
            waits("s" + i, "s" + (i + 1), "f" + (i + 1));
        }
        assertThat(cycles()).isEmpty();
        waits("s20000", "s0", "f0");
        assertThat(cycles()).hasSize(1);
    }
}
