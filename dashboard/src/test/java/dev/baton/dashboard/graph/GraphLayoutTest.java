package dev.baton.dashboard.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GraphLayoutTest {

    @Test
    void sessionsKeepTheirPlaceWhenOthersComeAndGo() {
        GraphLayout layout = new GraphLayout();
        Map<String, GraphLayout.Point> first = layout.place(List.of("a", "b", "c"));

        Map<String, GraphLayout.Point> second = layout.place(List.of("c", "a", "d", "e"));
        Map<String, GraphLayout.Point> third = layout.place(List.of("a", "c", "d", "e", "f", "b"));

        assertThat(second.get("a")).isEqualTo(first.get("a"));
        assertThat(second.get("c")).isEqualTo(first.get("c"));
        assertThat(second.get("d")).as("the newcomer takes the freed slot").isEqualTo(first.get("b"));
        assertThat(third.get("a")).isEqualTo(first.get("a"));
        assertThat(third.get("d")).isEqualTo(second.get("d"));
        assertThat(third.get("e")).isEqualTo(second.get("e"));
    }

    @Test
    void noTwoSessionsShareAPlace() {
        GraphLayout layout = new GraphLayout();
        List<String> ids = java.util.stream.IntStream.range(0, 30).mapToObj(i -> "s" + i).toList();

        Map<String, GraphLayout.Point> points = layout.place(ids);

        assertThat(points.values()).doesNotHaveDuplicates().hasSize(30);
    }

    @Test
    void twoSessionsSitSideBySide() {
        Map<String, GraphLayout.Point> points = new GraphLayout().place(List.of("a", "b"));

        assertThat(points.get("a").y()).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(points.get("b").y()).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(points.get("a").x()).isLessThan(points.get("b").x());
    }
}
