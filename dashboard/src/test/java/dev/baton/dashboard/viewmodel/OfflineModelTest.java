package dev.baton.dashboard.viewmodel;

import static dev.baton.dashboard.WireFrames.frame;
import static dev.baton.dashboard.WireFrames.negotiation;
import static dev.baton.dashboard.WireFrames.session;
import static dev.baton.dashboard.WireFrames.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.dashboard.connection.ConnectionState;
import dev.baton.dashboard.connection.ConnectionStatus;
import dev.baton.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model while the event stream is down: marked offline since the drop, its countdowns standing still. */
class OfflineModelTest {

    private static final String A = "aaaaaaaa-1";

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T14:02:11Z"));
    private final DashboardModel model = new DashboardModel(clock);

    @Test
    void aDroppedStreamIsOfflineSinceTheDropThroughEveryFailedAttemptUntilItIsBack() {
        model.connectionChanged(new ConnectionStatus(ConnectionState.CONNECTED, "connected to the sidecar"));
        assertThat(model.offlineProperty().get()).isFalse();

        model.connectionChanged(new ConnectionStatus(ConnectionState.RECONNECTING, "the event stream broke", Duration.ofMillis(250)));
        clock.advance(Duration.ofSeconds(20));
        model.connectionChanged(new ConnectionStatus(ConnectionState.OFFLINE, "the sidecar is not answering", Duration.ofSeconds(4)));

        assertThat(model.offlineProperty().get()).isTrue();
        assertThat(model.offlineSinceProperty().get()).isEqualTo(Instant.parse("2025-01-01T14:02:11Z"));
        assertThat(model.sinceProperty().get()).isEqualTo("since 14:02:11");
        assertThat(model.connectionProperty().get().retrying()).isEqualTo("retrying in 4 s");

        model.connectionChanged(new ConnectionStatus(ConnectionState.CONNECTED, "connected to the sidecar"));

        assertThat(model.offlineProperty().get()).isFalse();
        assertThat(model.offlineSinceProperty().get()).isNull();
        assertThat(model.sinceProperty().get()).isEmpty();
    }

    @Test
    void aSidecarNeverReachedIsNotOfflineSinceAnything() {
        model.connectionChanged(new ConnectionStatus(ConnectionState.OFFLINE, "no sidecar is running", Duration.ofSeconds(5)));

        assertThat(model.offlineProperty().get()).as("there is nothing shown that could be stale").isFalse();
        assertThat(model.sinceProperty().get()).isEmpty();
    }

    @Test
    void countdownsStandStillWhileOfflineAndMoveToTheClockOnceBack() {
        model.connectionChanged(new ConnectionStatus(ConnectionState.CONNECTED, "connected to the sidecar"));
        model.apply(List.of(frame(snapshot(1, session(A, null, "2025-01-01T14:00:00Z"), "", "",
                negotiation("n1", "pending", "2025-01-01T14:02:11Z", "2025-01-01T14:07:11Z"), ""))));
        NegotiationRow row = model.negotiations().get(0);
        assertThat(Countdown.of(row, model.nowProperty().get()).shown()).isEqualTo("5:00");

        model.connectionChanged(new ConnectionStatus(ConnectionState.RECONNECTING, "the event stream broke", Duration.ofMillis(250)));
        clock.advance(Duration.ofMinutes(2));
        model.tick();

        assertThat(Countdown.of(row, model.nowProperty().get()).shown()).isEqualTo("5:00");

        model.connectionChanged(new ConnectionStatus(ConnectionState.CONNECTED, "connected to the sidecar"));

        assertThat(Countdown.of(row, model.nowProperty().get()).shown()).isEqualTo("3:00");
        clock.advance(Duration.ofMinutes(1));
        model.tick();
        assertThat(Countdown.of(row, model.nowProperty().get()).shown()).isEqualTo("2:00");
    }
}
