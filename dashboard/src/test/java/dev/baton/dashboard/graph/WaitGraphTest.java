package dev.baton.dashboard.graph;

import static dev.baton.dashboard.WireFrames.REPO;
import static dev.baton.dashboard.WireFrames.frame;
import static dev.baton.dashboard.WireFrames.session;
import static dev.baton.dashboard.WireFrames.snapshot;
import static dev.baton.dashboard.WireFrames.waitOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.dashboard.model.Board;
import org.junit.jupiter.api.Test;

class WaitGraphTest {

    private static final String A = "aaaaaaaa-1";
    private static final String B = "bbbbbbbb-2";
    private static final String C = "cccccccc-3";

    private static Board board(String waits, String deadlocks) {
        Board board = new Board();
        board.apply(frame(snapshot(1, session(A, null, "2025-01-01T09:00:00Z") + "," + session(B, null, "2025-01-01T09:10:00Z")
                + "," + session(C, null, "2025-01-01T09:20:00Z"), "", waits, "", deadlocks)));
        return board;
    }

    @Test
    void waitsBecomeArrowsLabelledWithTheirFilesAndAChainIsNoDeadlock() {
        WaitGraph graph = WaitGraph.of(board(waitOf(A, B, "x.txt") + "," + waitOf(A, B, "w.txt") + "," + waitOf(B, C, "y.txt"), ""));

        assertThat(graph.nodes()).hasSize(3).noneMatch(WaitGraph.Node::inDeadlock);
        assertThat(graph.edges()).containsExactly(
                new WaitGraph.Edge(A, B, java.util.List.of("w.txt", "x.txt"), false),
                new WaitGraph.Edge(B, C, java.util.List.of("y.txt"), false));
    }

    @Test
    void aCycleTheSidecarReportedIsRedWithItsVictim() {
        String deadlock = "{\"id\":\"d1\",\"sessions\":[\"" + A + "\",\"" + B + "\"],\"files\":[\"" + REPO + "/y\",\"" + REPO
                + "/x\"],\"victim\":\"" + A + "\",\"detected_at\":\"2025-01-01T10:00:00Z\"}";
        WaitGraph graph = WaitGraph.of(board(waitOf(A, B, "y") + "," + waitOf(B, A, "x") + "," + waitOf(C, A, "z"), deadlock));

        assertThat(graph.edges()).filteredOn(WaitGraph.Edge::deadlock).extracting(WaitGraph.Edge::from).containsExactlyInAnyOrder(A, B);
        assertThat(graph.edges()).filteredOn(e -> e.from().equals(C)).noneMatch(WaitGraph.Edge::deadlock);
        assertThat(graph.nodes()).filteredOn(WaitGraph.Node::victim).extracting(WaitGraph.Node::id).containsExactly(A);
    }

    @Test
    void aCycleNotYetReportedIsRedTooWithTheYoungestSessionAsVictim() {
        WaitGraph graph = WaitGraph.of(board(waitOf(A, B, "y") + "," + waitOf(B, C, "z") + "," + waitOf(C, A, "x"), ""));

        assertThat(graph.edges()).hasSize(3).allMatch(WaitGraph.Edge::deadlock);
        assertThat(graph.nodes()).filteredOn(WaitGraph.Node::victim).extracting(WaitGraph.Node::id).containsExactly(C);
    }

    @Test
    void aCycleThroughAnotherMachineIsDrawnFromItsReportWithTheOtherMachinesSessionNamed() {
        String remote = "machine-two/bbbbbbbb-9";
        String deadlock = "{\"id\":\"d2\",\"sessions\":[\"" + A + "\",\"" + remote + "\"],\"files\":[\"" + REPO
                + "/y\",\"" + REPO + "/x\"],\"victim\":\"" + remote + "\",\"detected_at\":\"2025-01-01T10:00:00Z\"}";
        Board board = board("", deadlock);

        WaitGraph graph = WaitGraph.of(board);

        assertThat(graph.edges()).allMatch(WaitGraph.Edge::deadlock).extracting(WaitGraph.Edge::from, WaitGraph.Edge::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(A, remote), org.assertj.core.groups.Tuple.tuple(remote, A));
        assertThat(graph.edges().get(0).files()).hasSize(1).allMatch(file -> file.endsWith("y"));
        assertThat(graph.nodes()).filteredOn(WaitGraph.Node::victim).extracting(WaitGraph.Node::label)
                .containsExactly("bbbbbbbb on machine-two");
    }
}
