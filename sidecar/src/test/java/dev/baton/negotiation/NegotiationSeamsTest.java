package dev.baton.negotiation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import dev.baton.lock.LockChange;
import dev.baton.lock.ReleaseReason;
import dev.baton.state.Change;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What other modules build on: the wait-for edges, and negotiation changes as commits listeners see. */
class NegotiationSeamsTest {

    @TempDir Path dir;
    TestSidecar sidecar;
    Agent a;
    Agent b;
    final List<List<Change>> commits = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        sidecar = TestSidecar.in(dir).manualClock().start();
        a = sidecar.registerAgent("session-a");
        b = sidecar.registerAgent("session-b");
        sidecar.acquire(a, "src/App.java");
        sidecar.baton().ledger().addListener(commits::add);
    }

    @AfterEach
    void stop() {
        sidecar.close();
    }

    String negotiate() {
        return sidecar.baton().negotiations().negotiate(new NegotiationRequest(b.id(), sidecar.file("src/App.java"),
                "need it", Urgency.URGENT, Duration.ZERO)).negotiation().id();
    }

    @Test
    void anOpenNegotiationIsAWaitForEdgeFromRequesterToHolder() {
        String id = negotiate();
        assertThat(sidecar.baton().negotiations().pendingRequests()).singleElement().satisfies(edge -> {
            assertThat(edge.negotiationId()).isEqualTo(id);
            assertThat(edge.requester()).isEqualTo(b.id());
            assertThat(edge.holder()).isEqualTo(a.id());
            assertThat(edge.file()).isEqualTo(sidecar.file("src/App.java"));
            assertThat(edge.since()).isEqualTo(sidecar.clock().instant());
        });
        sidecar.baton().negotiations().respond(a.id(), id, new Answer.Defer(5, "soon"));
        assertThat(sidecar.baton().negotiations().pendingRequests()).hasSize(1);

        sidecar.baton().locks().release(a.id(), List.of(sidecar.file("src/App.java")), ReleaseReason.RELEASED);
        assertThat(sidecar.baton().negotiations().pendingRequests()).isEmpty();
    }

    @Test
    void theResolutionIsCommittedTogetherWithTheReleaseThatCausedIt() {
        String id = negotiate();
        commits.clear();
        sidecar.baton().locks().forceRelease(sidecar.file("src/App.java"), "supervisor:test");

        assertThat(commits).singleElement().satisfies(changes -> {
            assertThat(changes).anySatisfy(change -> assertThat(change).isInstanceOf(LockChange.LockRemoved.class));
            assertThat(changes).anySatisfy(change -> {
                assertThat(change).isInstanceOf(NegotiationChange.NegotiationSaved.class);
                Negotiation saved = ((NegotiationChange.NegotiationSaved) change).negotiation();
                assertThat(saved.id()).isEqualTo(id);
                assertThat(saved.state()).isEqualTo(NegotiationStatus.RELEASED);
                assertThat(saved.resolution()).isEqualTo("forced");
            });
        });
    }

    @Test
    void theSweeperRecordsATimeoutOnceSoListenersLearnOfIt() {
        String id = negotiate();
        sidecar.baton().sweepCoordination();
        commits.clear();

        sidecar.clock().advance(Duration.ofMinutes(5));
        sidecar.baton().sweepCoordination();
        sidecar.baton().sweepCoordination();

        List<Negotiation> saved = commits.stream().flatMap(List::stream)
                .filter(change -> change instanceof NegotiationChange.NegotiationSaved)
                .map(change -> ((NegotiationChange.NegotiationSaved) change).negotiation())
                .toList();
        assertThat(saved).singleElement().satisfies(n -> {
            assertThat(n.id()).isEqualTo(id);
            assertThat(n.state()).isEqualTo(NegotiationStatus.TIMEOUT_ELIGIBLE);
        });
        assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java"))).isPresent();
    }

    @Test
    void resolvedNegotiationsArePrunedAfterADay() {
        String id = negotiate();
        sidecar.baton().negotiations().respond(a.id(), id, new Answer.Release(null));
        sidecar.clock().advance(Duration.ofHours(23));
        sidecar.baton().sweepCoordination();
        assertThat(sidecar.baton().negotiations().list(null, false)).hasSize(1);
        sidecar.clock().advance(Duration.ofHours(2));
        sidecar.baton().sweepCoordination();
        assertThat(sidecar.baton().negotiations().list(null, false)).isEmpty();
        assertThat(sidecar.get("/v1/negotiations/" + id, Map.of()).status()).isEqualTo(404);
    }
}
