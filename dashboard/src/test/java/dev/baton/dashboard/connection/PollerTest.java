package dev.baton.dashboard.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.protocol.TeamReply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PollerTest {

    private final List<CompletableFuture<TeamReply>> requests = new CopyOnWriteArrayList<>();
    private final List<TeamReply> replies = new CopyOnWriteArrayList<>();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private Poller<TeamReply> poller;

    @AfterEach
    void close() {
        if (poller != null) {
            poller.close();
        }
    }

    private Poller<TeamReply> poller(Duration every) {
        poller = new Poller<>(() -> {
            CompletableFuture<TeamReply> request = new CompletableFuture<>();
            requests.add(request);
            return request;
        }, every, replies::add, failures::add);
        return poller;
    }

    @Test
    void pollsAtOnceThenAgainAfterEachAnswer() {
        poller(Duration.ofMillis(50)).start();

        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);
        requests.get(0).complete(TeamReply.none());
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 2);
        requests.get(1).complete(TeamReply.none());
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 3);

        assertThat(replies).hasSize(2);
    }

    @Test
    void neverAsksTwiceWhileARequestIsUnanswered() {
        poller(Duration.ofMillis(10)).start();
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);

        poller.pollSoon();
        poller.pollSoon();

        // Many intervals pass; the unanswered request holds the next one back.
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1)).until(() -> requests.size() == 1);
        requests.get(0).complete(TeamReply.none());
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 2);
    }

    @Test
    void pollSoonAsksAtOnceInsteadOfWaitingForTheInterval() {
        poller(Duration.ofHours(1)).start();
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);
        requests.get(0).complete(TeamReply.none());

        poller.pollSoon();

        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 2);
    }

    @Test
    void aFailedRequestIsReportedWithItsCauseAndPollingGoesOn() {
        poller(Duration.ofMillis(20)).start();
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);

        requests.get(0).completeExceptionally(new java.util.concurrent.CompletionException(
                new SidecarApiException("UNREACHABLE", "the sidecar did not answer")));

        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 2);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(SidecarApiException.class).hasMessage("the sidecar did not answer");
    }

    @Test
    void afterCloseNothingIsAskedAndALateReplyIsDropped() {
        poller(Duration.ofMillis(10)).start();
        await().atMost(Duration.ofSeconds(2)).until(() -> requests.size() == 1);

        poller.close();
        requests.get(0).complete(TeamReply.none());
        poller.pollSoon();

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1)).until(() -> requests.size() == 1);
        assertThat(replies).isEmpty();
    }
}
