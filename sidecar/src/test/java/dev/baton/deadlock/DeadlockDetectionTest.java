package dev.baton.deadlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.ChildProcess;
import dev.baton.support.EventClient;
import dev.baton.support.TestSidecar;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cycles built from real waiting acquires over HTTP, watched through the event stream. */
class DeadlockDetectionTest {

    @TempDir
    Path dir;

    /** Session i holds F{i} and then waits for F{i+1}; the last wait closes the ring. */
    private static final class Ring {
        final TestSidecar baton;
        final List<String> sessions = new ArrayList<>();
        final List<String> files = new ArrayList<>();
        final List<CompletableFuture<JsonNode>> waits = new ArrayList<>();

        Ring(TestSidecar baton, int size) {
            this.baton = baton;
            for (int i = 0; i < size; i++) {
                sessions.add(baton.register("s" + i));
                files.add(baton.file("F" + i + ".java"));
                baton.acquire(sessions.get(i), files.get(i), 0);
            }
        }

        /** Session i starts waiting for the next file; returns once the stream shows the wait. */
        void wait(EventClient client, int i) {
            waits.add(baton.acquireInBackground(sessions.get(i), files.get((i + 1) % files.size()), 60));
            client.awaitEvent("wait.started", data -> data.path("wait").path("waiter").asText().equals(sessions.get(i)));
        }

        String victim() {
            return sessions.get(sessions.size() - 1);
        }

        /** The file the victim holds and its predecessor waits for. */
        String victimsFile() {
            return files.get(files.size() - 1);
        }

        void end() {
            for (String session : sessions) {
                try {
                    baton.endSession(session);
                } catch (TestSidecar.ApiFailure alreadyEnded) {
                    assertThat(alreadyEnded.status).isEqualTo(404);
                }
            }
            waits.forEach(wait -> wait.handle((reply, failure) -> null).orTimeout(30, TimeUnit.SECONDS).join());
        }
    }

    @ParameterizedTest(name = "{0} sessions")
    @ValueSource(ints = {2, 3, 5})
    void aCycleOfWaitingAcquiresIsReportedOnceRightAfterItClosesWithTheYoungestAsVictim(int size) {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            Ring ring = new Ring(baton, size);
            for (int i = 0; i < size; i++) {
                ring.wait(client, i);
            }
            JsonNode detected = client.awaitEvent("deadlock.detected");
            JsonNode closing = client.events("wait.started").get(size - 1);
            assertThat(detected.path("seq").asLong()).isEqualTo(closing.path("seq").asLong() + 1);

            JsonNode deadlock = detected.path("data").path("deadlock");
            for (CompletableFuture<JsonNode> wait : ring.waits) { // every waiter is told at once, not at its timeout
                JsonNode told = wait.orTimeout(10, TimeUnit.SECONDS).join();
                assertThat(told.path("all_acquired").asBoolean()).isFalse();
                assertThat(told.path("deadlock").asText()).contains(deadlock.path("id").asText(), "F0.java");
            }
            assertThat(baton.modules().deadlocks().waits()).extracting(WaitView::kind).containsOnly("denied");
            assertThat(deadlock.path("sessions")).extracting(JsonNode::asText).containsExactlyElementsOf(ring.sessions);
            assertThat(deadlock.path("files")).extracting(JsonNode::asText)
                    .containsExactlyElementsOf(rotated(ring.files, 1));
            assertThat(deadlock.path("victim").asText()).isEqualTo(ring.victim());
            assertThat(baton.get("/v1/deadlocks").json().path("deadlocks")).extracting(d -> d.path("id").asText())
                    .containsExactly(deadlock.path("id").asText());
            assertThat(baton.get("/v1/history?file=" + ring.victimsFile()).json().path("entries"))
                    .extracting(e -> e.path("action").asText()).contains("deadlock-detected");

            Deadlocks deadlocks = baton.modules().deadlocks();
            DeadlockAdvice advice = deadlocks.takeAdvice(ring.victim()).orElseThrow();
            assertThat(advice.files()).containsExactly(ring.victimsFile());
            assertThat(advice.text()).contains("youngest", "release F" + (size - 1) + ".java");
            assertThat(deadlocks.takeAdvice(ring.victim())).isEmpty();
            assertThat(deadlocks.takeAdvice(ring.sessions.get(0))).isEmpty();
            for (String member : ring.sessions) {
                assertThat(deadlocks.denyNote(member)).hasValueSatisfying(note ->
                        assertThat(note).contains(deadlock.path("id").asText(), "F0.java"));
            }

            baton.release(ring.victim(), ring.victimsFile());
            JsonNode resolved = client.awaitEvent("deadlock.resolved");
            assertThat(resolved.path("data").path("id").asText()).isEqualTo(deadlock.path("id").asText());
            assertThat(resolved.path("data").path("how").asText()).isEqualTo("released");
            assertThat(baton.acquire(ring.sessions.get(size - 2), ring.victimsFile(), 0).path("all_acquired").asBoolean())
                    .isTrue();
            assertThat(baton.get("/v1/deadlocks").json().path("deadlocks")).isEmpty();
            assertThat(deadlocks.denyNote(ring.sessions.get(0))).isEmpty();

            ring.end();
            assertThat(client.events("deadlock.detected")).hasSize(1);
            await().until(() -> baton.modules().deadlocks().waits().isEmpty());
        }
    }

    @ParameterizedTest(name = "{0} sessions")
    @ValueSource(ints = {2, 3, 5})
    void underAutoReleaseTheVictimsFileIsFreedAtOnceAndTheCycleResolves(int size) {
        Map<String, String> env = Map.of("BATON_DEADLOCK_POLICY", "auto-release");
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(env).start(); EventClient client = baton.events(null)) {
            Ring ring = new Ring(baton, size);
            for (int i = 0; i < size; i++) {
                ring.wait(client, i);
            }
            JsonNode detected = client.awaitEvent("deadlock.detected");
            assertThat(detected.path("data").path("deadlock").path("victim").asText()).isEqualTo(ring.victim());
            JsonNode released = client.awaitEvent("lock.released", data -> data.path("reason").asText().equals("deadlock"));
            assertThat(released.path("seq").asLong()).isEqualTo(detected.path("seq").asLong() + 1);
            assertThat(released.path("data").path("file").asText()).isEqualTo(ring.victimsFile());
            assertThat(released.path("data").path("session_id").asText()).isEqualTo(ring.victim());
            JsonNode resolved = client.awaitEvent("deadlock.resolved");
            assertThat(resolved.path("data").path("how").asText()).isEqualTo("auto-released");

            JsonNode unblocked = ring.waits.get(size - 2).orTimeout(10, TimeUnit.SECONDS).join();
            assertThat(unblocked.path("all_acquired").asBoolean()).isTrue();
            assertThat(baton.modules().deadlocks().takeAdvice(ring.victim())).isEmpty();
            ring.end();
            assertThat(client.events("deadlock.detected")).hasSize(1);
        }
    }

    @Test
    void aCycleEndsWhenAHoldersProcessDies() throws Exception {
        try (ChildProcess holder = ChildProcess.sleeping(); TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start();
             EventClient client = baton.events(null)) {
            Crossing crossing = Crossing.of(baton, holder.pid());
            String alice = crossing.alice();
            String bob = crossing.bob();
            CompletableFuture<JsonNode> aliceWaits = crossing.aliceWaitsForB(client);
            CompletableFuture<JsonNode> bobWaits = baton.acquireInBackground(bob, baton.file("A.java"), 60);
            JsonNode deadlock = client.awaitEvent("deadlock.detected").path("data").path("deadlock");
            assertThat(deadlock.path("victim").asText()).isEqualTo(bob);
            assertThat(aliceWaits.orTimeout(10, TimeUnit.SECONDS).join().path("deadlock").asText()).contains(deadlock.path("id").asText());
            assertThat(bobWaits.orTimeout(10, TimeUnit.SECONDS).join().path("deadlock").asText()).contains(deadlock.path("id").asText());

            holder.kill();

            JsonNode resolved = client.awaitEvent("deadlock.resolved");
            assertThat(resolved.path("data").path("id").asText()).isEqualTo(deadlock.path("id").asText());
            assertThat(resolved.path("data").path("how").asText()).isEqualTo("holder-exited");
            assertThat(baton.acquire(alice, baton.file("B.java"), 0).path("all_acquired").asBoolean()).isTrue();
            client.awaitEvent("stale.cleaned", data -> data.path("session_id").asText().equals(bob));
            assertThat(baton.modules().deadlocks().waits()).isEmpty();
        }
    }

    @Test
    void aWaiterToldOfItsDeadlockCountsAsWaitingForTheDeniedWindowAndThenTheCycleExpires() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            Crossing crossing = Crossing.of(baton, null);
            String bob = crossing.bob();
            CompletableFuture<JsonNode> aliceWaits = crossing.aliceWaitsForB(client);
            CompletableFuture<JsonNode> bobWaits = baton.acquireInBackground(bob, baton.file("A.java"), 300);
            String id = client.awaitEvent("deadlock.detected").path("data").path("deadlock").path("id").asText();

            JsonNode told = bobWaits.orTimeout(10, TimeUnit.SECONDS).join();
            assertThat(told.path("all_acquired").asBoolean()).isFalse();
            assertThat(told.path("deadlock").asText()).startsWith("This is part of a deadlock (" + id + ")");
            assertThat(aliceWaits.orTimeout(10, TimeUnit.SECONDS).join().path("deadlock").asText()).contains(id);
            assertThat(baton.modules().deadlocks().waits()).extracting(WaitView::waiter, WaitView::kind).containsOnly(
                    org.assertj.core.groups.Tuple.tuple(crossing.alice(), "denied"),
                    org.assertj.core.groups.Tuple.tuple(bob, "denied"));
            assertThat(baton.get("/v1/deadlocks").json().path("deadlocks")).hasSize(1);

            baton.clock().advance(DeadlockSettings.DEFAULT_DENIED_WINDOW.plusSeconds(1));
            JsonNode resolved = client.awaitEvent("deadlock.resolved");
            assertThat(resolved.path("data").path("how").asText()).isEqualTo("expired");
        }
    }

    @Test
    void aCycleEndsWhenAMemberSessionEnds() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            Ring ring = new Ring(baton, 3);
            for (int i = 0; i < 3; i++) {
                ring.wait(client, i);
            }
            client.awaitEvent("deadlock.detected");
            baton.endSession(ring.sessions.get(1));
            JsonNode resolved = client.awaitEvent("deadlock.resolved");
            assertThat(resolved.path("data").path("how").asText()).isEqualTo("session-ended");
            assertThat(baton.get("/v1/history?file=" + ring.files.get(1)).json().path("entries"))
                    .extracting(e -> e.path("action").asText()).contains("deadlock-detected", "deadlock-resolved");
            ring.end();
        }
    }

    @Test
    void noCycleIsReportedWhenOneWaitEndsBeforeTheOtherEdgeAppears() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            Crossing crossing = Crossing.of(baton, null);
            String alice = crossing.alice();
            String bob = crossing.bob();
            CompletableFuture<JsonNode> aliceWaits = crossing.aliceWaitsForB(client);
            baton.release(bob, baton.file("B.java"));
            assertThat(aliceWaits.orTimeout(10, TimeUnit.SECONDS).join().path("all_acquired").asBoolean()).isTrue();
            client.awaitEvent("wait.ended", data -> data.path("waiter").asText().equals(alice));

            CompletableFuture<JsonNode> bobWaits = baton.acquireInBackground(bob, baton.file("A.java"), 60);
            client.awaitEvent("wait.started", data -> data.path("wait").path("waiter").asText().equals(bob));
            assertThat(baton.modules().deadlocks().waits()).extracting(WaitView::waiter, WaitView::holder)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(bob, alice));
            baton.release(alice, baton.file("A.java"));
            assertThat(bobWaits.orTimeout(10, TimeUnit.SECONDS).join().path("all_acquired").asBoolean()).isTrue();
            client.awaitEvent("wait.ended", data -> data.path("waiter").asText().equals(bob));
            assertThat(client.events("deadlock.detected")).isEmpty();
        }
    }

    @Test
    void aDeniedEditCountsAsAWaitUntilItsWindowEndsAndCanCloseACycle() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            Crossing crossing = Crossing.of(baton, null);
            String alice = crossing.alice();
            String bob = crossing.bob();
            Deadlocks deadlocks = baton.modules().deadlocks();

            deadlocks.editDenied(bob, baton.file("A.java"));
            JsonNode started = client.awaitEvent("wait.started").path("data").path("wait");
            assertThat(started.path("kind").asText()).isEqualTo("denied");
            assertThat(started.path("holder").asText()).isEqualTo(alice);

            CompletableFuture<JsonNode> aliceWaits = baton.acquireInBackground(alice, baton.file("B.java"), 60);
            JsonNode deadlock = client.awaitEvent("deadlock.detected").path("data").path("deadlock");
            assertThat(deadlock.path("victim").asText()).isEqualTo(bob);
            assertThat(aliceWaits.orTimeout(10, TimeUnit.SECONDS).join().path("deadlock").asText())
                    .contains(deadlock.path("id").asText());

            baton.clock().advance(DeadlockSettings.DEFAULT_DENIED_WINDOW.minusSeconds(1));
            deadlocks.editDenied(bob, baton.file("A.java")); // a second denial moves bob's window on
            deadlocks.editDenied(alice, baton.file("B.java")); // and alice's
            baton.clock().advance(java.time.Duration.ofSeconds(2));
            baton.post("/v1/sessions/" + bob + "/heartbeat", Map.of(), baton.proof(bob)).json(); // the clock moved, nothing else did
            assertThat(deadlocks.waits()).extracting(WaitView::kind).containsOnly("denied").hasSize(2);
            assertThat(client.events("deadlock.resolved")).isEmpty();

            baton.clock().advance(DeadlockSettings.DEFAULT_DENIED_WINDOW);
            JsonNode ended = client.awaitEvent("wait.ended", data -> data.path("kind").asText().equals("denied"));
            JsonNode resolved = client.awaitEvent("deadlock.resolved");
            assertThat(resolved.path("data").path("how").asText()).isEqualTo("expired");
            assertThat(resolved.path("seq").asLong()).isGreaterThan(ended.path("seq").asLong());

            baton.release(bob, baton.file("B.java"));
            assertThat(baton.acquire(alice, baton.file("B.java"), 0).path("all_acquired").asBoolean()).isTrue();
        }
    }

    @Test
    void deniedEditsStillWaitingAfterARestartAreEdgesAgainAndTheirCycleIsReported() {
        String alice;
        String bob;
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            Crossing crossing = Crossing.of(baton, null);
            alice = crossing.alice();
            bob = crossing.bob();
            baton.modules().deadlocks().editDenied(bob, baton.file("A.java"));
        }

        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            Deadlocks deadlocks = baton.modules().deadlocks();
            assertThat(deadlocks.waits()).extracting(WaitView::waiter, WaitView::holder, WaitView::kind)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(bob, alice, "denied"));

            deadlocks.editDenied(alice, baton.file("B.java"));

            JsonNode deadlock = client.awaitEvent("deadlock.detected").path("data").path("deadlock");
            assertThat(deadlock.path("sessions")).extracting(JsonNode::asText).containsExactlyInAnyOrder(alice, bob);
        }
    }

    @Test
    void aDeniedWaitWhoseWindowPassedOrWhoseWaiterTookTheFileIsNotBroughtBack() {
        String bob;
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            Crossing crossing = Crossing.of(baton, null);
            bob = crossing.bob();
            String carol = baton.register("carol");
            baton.modules().deadlocks().editDenied(bob, baton.file("A.java"));
            baton.modules().deadlocks().editDenied(carol, baton.file("A.java"));
            baton.release(crossing.alice(), baton.file("A.java"));
            baton.acquire(carol, baton.file("A.java"), 0);
        }

        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            assertThat(baton.modules().deadlocks().waits()).extracting(WaitView::waiter).containsExactly(bob);
        }
        try (TestSidecar baton = startedLater(DeadlockSettings.DEFAULT_DENIED_WINDOW.plusMinutes(1))) {
            assertThat(baton.modules().deadlocks().waits()).isEmpty();
        }
    }

    /** The sidecar started again in the same home, its clock that much later than a fresh one's. */
    private TestSidecar startedLater(java.time.Duration later) {
        return TestSidecar.in(dir).fixedClock(later).env(Map.of()).start();
    }

    @Test
    void aDeniedWaitEndsWhenTheSessionGetsTheFileOrEnds() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start(); EventClient client = baton.events(null)) {
            String alice = baton.register("alice");
            String bob = baton.register("bob");
            String carol = baton.register("carol");
            baton.acquire(alice, baton.file("A.java"), 0);
            Deadlocks deadlocks = baton.modules().deadlocks();
            deadlocks.editDenied(bob, baton.file("A.java"));
            deadlocks.editDenied(carol, baton.file("A.java"));
            assertThat(deadlocks.waits()).hasSize(2);

            baton.release(alice, baton.file("A.java"));
            baton.acquire(bob, baton.file("A.java"), 0);
            client.awaitEvent("wait.ended", data -> data.path("waiter").asText().equals(bob));
            assertThat(deadlocks.waits()).extracting(WaitView::waiter, WaitView::holder)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(carol, bob));

            baton.endSession(carol);
            client.awaitEvent("wait.ended", data -> data.path("waiter").asText().equals(carol));
            assertThat(deadlocks.waits()).isEmpty();
        }
    }

    /** Alice holds A.java and Bob B.java: each is one half of the smallest cycle. */
    @Test
    void denialsRepeatedInADeadlockAreAuditedOncePerChangeNotOncePerCheck() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            Crossing crossing = Crossing.of(baton, null);
            Deadlocks deadlocks = baton.modules().deadlocks();

            for (int round = 0; round < 100; round++) {
                // Both agents keep trying each other's file; one also keeps asking with a wait, which meets the deadlock.
                deadlocks.editDenied(crossing.bob(), baton.file("A.java"));
                deadlocks.editDenied(crossing.alice(), baton.file("B.java"));
                assertThat(baton.acquire(crossing.alice(), baton.file("B.java"), 30).path("deadlock").asText()).isNotEmpty();
            }

            Map<String, Long> rows = baton.sidecar().baton().ledger().read(world ->
                    baton.sidecar().baton().ledger().store().auditSince(0, 100_000)).stream()
                    .collect(java.util.stream.Collectors.groupingBy(dev.baton.state.AuditEntry::action,
                            java.util.stream.Collectors.counting()));
            assertThat(deadlocks.deadlocks()).hasSize(1);
            assertThat(rows.get("wait-denied")).as(rows.toString()).isEqualTo(2);
            assertThat(rows.get("deadlock-detected")).as(rows.toString()).isEqualTo(2);
            assertThat(rows.getOrDefault("deadlock-resolved", 0L)).as(rows.toString()).isZero();

            // Half a window later, a denial records the wait's new end once more: a restart keeps it that long.
            baton.clock().advance(DeadlockSettings.DEFAULT_DENIED_WINDOW.dividedBy(2).plusSeconds(1));
            deadlocks.editDenied(crossing.bob(), baton.file("A.java"));
            deadlocks.editDenied(crossing.bob(), baton.file("A.java"));
            long denied = baton.sidecar().baton().ledger().read(world -> baton.sidecar().baton().ledger().store()
                    .auditSince(0, 100_000)).stream().filter(entry -> entry.action().equals("wait-denied")).count();
            assertThat(denied).isEqualTo(3);
        }
    }

    private record Crossing(TestSidecar baton, String alice, String bob) {

        static Crossing of(TestSidecar baton, Long bobsPid) {
            Crossing crossing = new Crossing(baton, baton.register("alice"), baton.register("bob", bobsPid));
            baton.acquire(crossing.alice, baton.file("A.java"), 0);
            baton.acquire(crossing.bob, baton.file("B.java"), 0);
            return crossing;
        }

        /** Alice starts waiting for Bob's file; returns once the stream shows the wait. */
        CompletableFuture<JsonNode> aliceWaitsForB(EventClient client) {
            CompletableFuture<JsonNode> waits = baton.acquireInBackground(alice, baton.file("B.java"), 60);
            client.awaitEvent("wait.started", data -> data.path("wait").path("waiter").asText().equals(alice));
            return waits;
        }
    }

    private static List<String> rotated(List<String> list, int by) {
        List<String> rotated = new ArrayList<>(list.subList(by, list.size()));
        rotated.addAll(list.subList(0, by));
        return rotated;
    }
}
