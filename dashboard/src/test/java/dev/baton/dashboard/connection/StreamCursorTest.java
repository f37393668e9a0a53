package dev.baton.dashboard.connection;

import static dev.baton.dashboard.WireFrames.emptySnapshot;
import static dev.baton.dashboard.WireFrames.event;
import static dev.baton.dashboard.WireFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.dashboard.connection.StreamCursor.Verdict;
import dev.baton.dashboard.protocol.Frame;
import org.junit.jupiter.api.Test;

class StreamCursorTest {

    private final StreamCursor cursor = new StreamCursor();

    private static Frame plan(long seq) {
        return frame(event(seq, "plan.updated", "{\"session_id\":\"a\",\"goal\":\"g\",\"current_task\":null}"));
    }

    @Test
    void aFreshConnectionAsksForASnapshotAndThenResumesFromTheLastAppliedEvent() {
        assertThat(cursor.since()).isNull();
        cursor.connectionOpened();
        assertThat(cursor.accept(frame(emptySnapshot(10)))).isEqualTo(Verdict.APPLY);
        assertThat(cursor.accept(plan(11))).isEqualTo(Verdict.APPLY);
        assertThat(cursor.accept(plan(12))).isEqualTo(Verdict.APPLY);

        assertThat(cursor.since()).isEqualTo(12L);
    }

    @Test
    void aResumedConnectionSkipsNothingAndAppliesTheNextEvent() {
        cursor.connectionOpened();
        cursor.accept(frame(emptySnapshot(10)));
        cursor.connectionOpened();

        assertThat(cursor.accept(plan(11))).isEqualTo(Verdict.APPLY);
        assertThat(cursor.since()).isEqualTo(11L);
    }

    @Test
    void aGapMidStreamAsksToResumeFromTheLastAppliedEvent() {
        cursor.connectionOpened();
        cursor.accept(frame(emptySnapshot(10)));
        cursor.accept(plan(11));

        assertThat(cursor.accept(plan(13))).isEqualTo(Verdict.RESUME);
        assertThat(cursor.since()).isEqualTo(11L);
    }

    @Test
    void aReplayedEventMidStreamIsSkipped() {
        cursor.connectionOpened();
        cursor.accept(frame(emptySnapshot(10)));
        cursor.accept(plan(11));

        assertThat(cursor.accept(plan(11))).isEqualTo(Verdict.SKIP);
        assertThat(cursor.since()).isEqualTo(11L);
    }

    @Test
    void aResumeThatDoesNotContinueTheSequenceStartsOverFromASnapshot() {
        cursor.connectionOpened();
        cursor.accept(frame(emptySnapshot(50)));
        cursor.connectionOpened();

        // A restarted sidecar numbering from 1 again.
        assertThat(cursor.accept(plan(3))).isEqualTo(Verdict.RESTART);
        assertThat(cursor.since()).isNull();
    }

    @Test
    void aResyncMidStreamResumesButAResyncRightAfterResumingTakesASnapshot() {
        cursor.connectionOpened();
        cursor.accept(frame(emptySnapshot(10)));
        cursor.accept(plan(11));
        assertThat(cursor.accept(frame("{\"type\":\"resync\",\"reason\":\"slow reader\"}"))).isEqualTo(Verdict.RESUME);
        assertThat(cursor.since()).isEqualTo(11L);

        cursor.connectionOpened();
        assertThat(cursor.accept(frame("{\"type\":\"resync\",\"reason\":\"since is too old\"}"))).isEqualTo(Verdict.RESTART);
        assertThat(cursor.since()).isNull();
    }

    @Test
    void anEventBeforeAnySnapshotStartsOver() {
        cursor.connectionOpened();
        assertThat(cursor.accept(plan(5))).isEqualTo(Verdict.RESTART);
    }

    @Test
    void pongsAndUnknownFramesChangeNothing() {
        cursor.connectionOpened();
        cursor.accept(frame(emptySnapshot(10)));
        assertThat(cursor.accept(frame("{\"type\":\"pong\"}"))).isEqualTo(Verdict.SKIP);
        assertThat(cursor.accept(frame("{\"type\":\"hello-from-the-future\"}"))).isEqualTo(Verdict.SKIP);
        assertThat(cursor.since()).isEqualTo(10L);
    }

    @Test
    void theEventsAddressCarriesSinceOnlyWhenThereIsOne() {
        SidecarAddress address = SidecarAddress.of("127.0.0.1:7433", "t");
        assertThat(address.events(null)).hasToString("ws://127.0.0.1:7433/v1/events");
        assertThat(address.events(12L)).hasToString("ws://127.0.0.1:7433/v1/events?since=12");
    }
}
