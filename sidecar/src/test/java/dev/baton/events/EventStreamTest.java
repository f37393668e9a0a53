package dev.baton.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.ChildProcess;
import dev.baton.support.EventClient;
import dev.baton.support.TestSidecar;
import java.net.URI;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventStreamTest {

    @TempDir
    Path dir;

    @Test
    void aClientGetsASnapshotThenEveryChangeInOrderWithConsecutiveNumbers() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String alice = baton.register("alice");
            baton.acquire(alice, baton.file("App.java"), 0);
            try (EventClient client = baton.events(null)) {
                JsonNode snapshot = client.firstFrame();
                assertThat(snapshot.path("type").asText()).isEqualTo("snapshot");
                long covered = snapshot.path("seq").asLong();
                JsonNode state = snapshot.path("snapshot");
                assertThat(state.path("sessions")).extracting(s -> s.path("id").asText()).containsExactly("alice");
                assertThat(state.path("locks")).extracting(l -> l.path("file").asText()).containsExactly(baton.file("App.java"));
                assertThat(state.path("locks").get(0).path("holder").path("session").asText()).isEqualTo("alice");
                assertThat(state.fieldNames()).toIterable()
                        .containsExactly("sessions", "locks", "named_locks", "waits", "negotiations", "deadlocks");

                String bob = baton.register("bob");
                baton.acquire(bob, baton.file("Lib.java"), 0);
                baton.release(alice, baton.file("App.java"));
                baton.endSession(bob);

                await().until(() -> client.events().size() >= 5);
                List<JsonNode> events = client.events();
                assertThat(events).extracting(e -> e.path("kind").asText())
                        .containsExactly("session.started", "lock.acquired", "lock.released", "lock.released", "session.ended");
                assertThat(events).extracting(e -> e.path("seq").asLong())
                        .containsExactlyElementsOf(LongStream.rangeClosed(covered + 1, covered + 5).boxed().toList());
                JsonNode released = events.get(2).path("data");
                assertThat(released.path("file").asText()).isEqualTo(baton.file("App.java"));
                assertThat(released.path("session_id").asText()).isEqualTo("alice");
                assertThat(released.path("reason").asText()).isEqualTo("released");
                assertThat(events.get(4).path("data").path("reason").asText()).isEqualTo("session-ended");
                assertThat(events.get(1).path("at").asText()).isEqualTo(baton.clock().instant().toString());
            }
        }
    }

    @Test
    void aRefusedActForASessionAndTheSupervisorEndingOneAreEvents() throws Exception {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String alice = baton.register("alice");
            try (EventClient client = baton.events(null)) {
                client.firstFrame();
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> baton.post("/v1/sessions/" + alice + "/heartbeat",
                        Map.of(), Map.of(dev.baton.http.Callers.KEY_HEADER, "not-alices-key")).json())
                        .isInstanceOf(TestSidecar.ApiFailure.class);
                String supervisor = baton.sidecar().home().readSupervisorToken().orElseThrow();
                java.net.http.HttpResponse<String> ended = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + baton.port()
                                + "/v1/sessions/" + alice)).header("Authorization", "Bearer " + supervisor).DELETE().build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(ended.statusCode()).as(ended.body()).isEqualTo(200);

                JsonNode refused = client.awaitEvent("security.impersonation_refused").path("data");
                JsonNode end = client.awaitEvent("session.ended").path("data");
                assertThat(refused.path("session_id").asText()).isEqualTo(alice);
                assertThat(refused.path("attempt").asText()).contains("a key that is not its own");
                assertThat(end.path("actor").asText()).startsWith("supervisor (pid " + ProcessHandle.current().pid());
            }
        }
    }

    @Test
    void heartbeatsAreNotSentButOtherSessionChangesAre() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String alice = baton.register("alice");
            try (EventClient client = baton.events(null)) {
                client.firstFrame();
                baton.post("/v1/sessions/" + alice + "/heartbeat", Map.of(), baton.proof(alice)).json();
                baton.post("/v1/sessions", Map.of("session_id", alice, "name", "refactor auth"), baton.proof(alice)).json();
                JsonNode updated = client.awaitEvent("session.updated");
                assertThat(updated.path("data").path("session").path("name").asText()).isEqualTo("refactor auth");
                assertThat(client.events()).hasSize(1);
            }
        }
    }

    @Test
    void editsPlansNamedLocksAndStaleHoldersAreEventsToo() throws Exception {
        try (ChildProcess agent = ChildProcess.sleeping(); TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start();
             EventClient client = baton.events(null)) {
            client.firstFrame();
            String alice = baton.register("alice");
            baton.acquire(alice, baton.file("App.java"), 0);
            baton.sidecar().baton().locks().editDone(alice, List.of(baton.file("App.java")));
            JsonNode updated = client.awaitEvent("lock.updated").path("data").path("lock");
            assertThat(updated.path("last_edit").asText()).isEqualTo(baton.clock().instant().toString());

            baton.sidecar().baton().sessions().setPlan(alice, "refactor auth", "split the token check");
            JsonNode plan = client.awaitEvent("plan.updated").path("data");
            assertThat(plan.path("session_id").asText()).isEqualTo(alice);
            assertThat(plan.path("goal").asText()).isEqualTo("refactor auth");
            assertThat(plan.path("current_task").asText()).isEqualTo("split the token check");

            baton.post("/v1/named-locks/acquire", Map.of("name", "nightly-build", "pid", ProcessHandle.current().pid(),
                    "host", "here", "purpose", "build")).json();
            assertThat(client.awaitEvent("named_lock.acquired").path("data").path("named_lock").path("name").asText())
                    .isEqualTo("nightly-build");
            baton.post("/v1/named-locks/release", Map.of("name", "nightly-build", "pid", ProcessHandle.current().pid())).json();
            assertThat(client.awaitEvent("named_lock.released").path("data").path("reason").asText()).isEqualTo("released");

            String bob = baton.register("bob", agent.pid());
            baton.acquire(bob, baton.file("Lib.java"), 0);
            assertThat(baton.acquire(alice, baton.file("Lib.java"), 0).path("all_acquired").asBoolean()).isFalse();
            JsonNode denied = client.awaitEvent("lock.denied").path("data");
            assertThat(denied.path("session_id").asText()).isEqualTo(alice);
            assertThat(denied.path("holder").asText()).isEqualTo(bob);

            agent.kill();
            JsonNode cleaned = client.awaitEvent("stale.cleaned").path("data");
            assertThat(cleaned.path("session_id").asText()).isEqualTo(bob);
            assertThat(cleaned.path("reason").asText()).isEqualTo("holder-exited");
            assertThat(cleaned.path("files")).extracting(JsonNode::asText).containsExactly(baton.file("Lib.java"));
            assertThat(client.events("session.updated")).isEmpty();
        }
    }

    @Test
    void aClientReconnectingWithSinceGetsEveryEventItMissedOnceAndInOrder() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String alice = baton.register("alice");
            long seen;
            try (EventClient client = baton.events(null)) {
                seen = client.firstFrame().path("seq").asLong();
            }
            for (int i = 0; i < 50; i++) {
                baton.acquire(alice, baton.file("F" + i + ".java"), 0);
                baton.release(alice, baton.file("F" + i + ".java"));
            }
            try (EventClient client = baton.events(seen)) {
                await().until(() -> client.events().size() >= 100);
                String bob = baton.register("bob");
                await().until(() -> client.events().size() >= 101);
                List<JsonNode> frames = client.frames();
                assertThat(frames).allMatch(f -> f.path("type").asText().equals("event"));
                assertThat(frames).extracting(e -> e.path("seq").asLong())
                        .containsExactlyElementsOf(LongStream.rangeClosed(seen + 1, seen + 101).boxed().toList());
                assertThat(frames.get(0).path("kind").asText()).isEqualTo("lock.acquired");
                assertThat(frames.get(0).path("data").path("lock").path("file").asText()).isEqualTo(baton.file("F0.java"));
                assertThat(frames.get(99).path("data").path("file").asText()).isEqualTo(baton.file("F49.java"));
                assertThat(frames.get(100).path("data").path("session").path("id").asText()).isEqualTo(bob);
            }
        }
    }

    @Test
    void aReplayLongerThanOnePageArrivesWhole() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String alice = baton.register("alice");
            for (int i = 0; i < Subscriber.PAGE + 20; i++) {
                baton.acquire(alice, baton.file("F" + i + ".java"), 0);
            }
            try (EventClient client = baton.events(0L)) {
                await().until(() -> client.events().size() >= Subscriber.PAGE + 21);
                assertThat(client.frames()).extracting(e -> e.path("seq").asLong())
                        .containsExactlyElementsOf(LongStream.rangeClosed(1, Subscriber.PAGE + 21).boxed().toList());
            }
        }
    }

    @Test
    void aSinceOlderThanTheRetainedEventsGetsAFreshSnapshot() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of("BATON_EVENT_RETENTION", "20")).start()) {
            String alice = baton.register("alice");
            for (int i = 0; i < 60; i++) {
                baton.acquire(alice, baton.file("F" + i + ".java"), 0);
            }
            try (EventClient client = baton.events(3L)) {
                JsonNode first = client.firstFrame();
                assertThat(first.path("type").asText()).isEqualTo("snapshot");
                assertThat(first.path("seq").asLong()).isEqualTo(61);
                assertThat(first.path("snapshot").path("locks")).hasSize(60);
            }
            try (EventClient client = baton.events(45L)) {
                await().until(() -> client.events().size() >= 16);
                assertThat(client.frames()).extracting(e -> e.path("seq").asLong())
                        .containsExactlyElementsOf(LongStream.rangeClosed(46, 61).boxed().toList());
            }
        }
    }

    @Test
    void sequenceNumbersContinueAfterARestart() {
        long before;
        Map<String, String> alicesKey;
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            baton.acquire(baton.register("alice"), baton.file("App.java"), 0);
            before = baton.modules().events().lastSeq();
            alicesKey = baton.proof("alice");
        }
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            try (EventClient client = baton.events(0L)) {
                baton.post("/v1/locks/release", Map.of("session_id", "alice", "files", List.of(baton.file("App.java"))), alicesKey).json();
                await().until(() -> client.events().size() >= before + 1);
                assertThat(client.frames()).extracting(e -> e.path("seq").asLong())
                        .containsExactlyElementsOf(LongStream.rangeClosed(1, before + 1).boxed().toList());
            }
        }
    }

    @Test
    void aClientThatNeverReadsDoesNotHoldBackAThousandAcquiresOrAnotherClient() {
        for (boolean withStalledClient : new boolean[] {false, true}) {
            try (TestSidecar baton = TestSidecar.in(dir.resolve("run-" + withStalledClient)).fixedClock().env(Map.of()).start()) {
                String alice = baton.register("alice");
                EventClient stalled = withStalledClient ? baton.stalledEvents() : null;
                try (EventClient reader = baton.events(null)) {
                    long start = reader.firstFrame().path("seq").asLong();
                    for (int i = 0; i < 1000; i++) {
                        assertThat(baton.acquire(alice, baton.file("F" + i + ".java"), 0).path("all_acquired").asBoolean()).isTrue();
                    }
                    await().until(() -> reader.events().size() >= 1000);
                    assertThat(reader.events()).extracting(e -> e.path("seq").asLong())
                            .containsExactlyElementsOf(LongStream.rangeClosed(start + 1, start + 1000).boxed().toList());
                } finally {
                    if (stalled != null) {
                        stalled.close();
                    }
                }
            }
        }
    }

    @Test
    void aClientThatFallsAWholeQueueBehindIsToldToResyncAndClosed() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of("BATON_EVENT_CLIENT_QUEUE", "8")).start()) {
            // A long name makes every lock event large, so the stalled client's socket fills up quickly.
            baton.register("alice");
            baton.post("/v1/sessions", Map.of("session_id", "alice", "name", "n".repeat(256 * 1024)), baton.proof("alice")).json();
            try (EventClient stalled = baton.stalledEvents(); EventClient reader = baton.events(null)) {
                reader.firstFrame();
                int i = 0;
                while (baton.modules().events().clients() > 1 && i < 500) {
                    baton.acquire("alice", baton.file("F" + i++ + ".java"), 0);
                }
                assertThat(baton.modules().events().clients()).isEqualTo(1);
                int acquired = i;
                await().until(() -> reader.events().size() >= acquired);

                stalled.resume();
                await().until(stalled::isClosed);
                List<JsonNode> frames = stalled.frames();
                JsonNode last = frames.get(frames.size() - 1);
                assertThat(last.path("type").asText()).isEqualTo("resync");
                assertThat(last.path("reason").asText()).contains("read too slowly");
                assertThat(frames.get(0).path("type").asText()).isEqualTo("snapshot");
            }
        }
    }

    @Test
    void aPingIsAnsweredWithAPongAndOtherMessagesAreIgnored() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            client.firstFrame();
            client.send("not json");
            client.send("{\"type\":\"hello\"}");
            client.send("{\"type\":\"ping\"}");
            await().until(() -> client.frames().size() >= 2);
            assertThat(client.frames().get(1).toString()).isEqualTo("{\"type\":\"pong\"}");
        }
    }

    @Test
    void theUpgradeIsRefusedWithoutTheTokenFromAForeignOriginOrWithABadSince() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            URI events = URI.create("ws://127.0.0.1:" + baton.port() + "/v1/events");
            assertThat(handshakeStatus(EventClient.builder(null, null), events)).isEqualTo(401);
            assertThat(handshakeStatus(EventClient.builder("wrong", null), events)).isEqualTo(401);
            assertThat(handshakeStatus(EventClient.builder(baton.token(), "http://evil.example"), events)).isEqualTo(403);
            assertThat(handshakeStatus(EventClient.builder(baton.token(), null),
                    URI.create(events + "?since=yesterday"))).isEqualTo(400);
            assertThat(baton.modules().events().clients()).isZero();
            String ownOrigin = "http://127.0.0.1:" + baton.port();
            WebSocket accepted = EventClient.builder(baton.token(), ownOrigin)
                    .buildAsync(events, new WebSocket.Listener() { }).join();
            accepted.abort();
        }
    }

    private static int handshakeStatus(WebSocket.Builder builder, URI uri) {
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
                () -> builder.buildAsync(uri, new WebSocket.Listener() { }).join());
        assertThat(failure).isInstanceOf(CompletionException.class);
        assertThat(failure.getCause()).isInstanceOf(WebSocketHandshakeException.class);
        return ((WebSocketHandshakeException) failure.getCause()).getResponse().statusCode();
    }
}
