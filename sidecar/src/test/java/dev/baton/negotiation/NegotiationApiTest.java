package dev.baton.negotiation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import dev.baton.support.TestSidecar.Reply;
import dev.baton.lock.ReleaseReason;
import dev.baton.support.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Negotiated hand-offs over the real HTTP API of a real sidecar. */
class NegotiationApiTest {

    @TempDir Path dir;
    TestSidecar sidecar;
    Agent a;
    Agent b;

    @BeforeEach
    void start() throws IOException {
        sidecar = TestSidecar.in(dir).manualClock().start();
        a = sidecar.registerAgent("session-a");
        b = sidecar.registerAgent("session-b");
        assertThat(sidecar.acquire(a, "src/App.java").body().path("all_acquired").asBoolean()).isTrue();
    }

    @AfterEach
    void stop() {
        sidecar.close();
    }

    Reply negotiate(Agent requester, String file, String urgency, int waitSeconds) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", requester.id());
        body.put("file", file);
        body.put("reason", "the login bug is in this file");
        body.put("urgency", urgency);
        body.put("wait_seconds", waitSeconds);
        return sidecar.post("/v1/negotiations", body, requester.proof());
    }

    Reply respond(Agent holder, String id, Map<String, Object> answer) {
        Map<String, Object> body = new LinkedHashMap<>(answer);
        body.put("session_id", holder.id());
        return sidecar.post("/v1/negotiations/" + id + "/respond", body, holder.proof());
    }

    JsonNode negotiation(String id) {
        return sidecar.get("/v1/negotiations/" + id, Map.of()).body().path("negotiation");
    }

    String openRequest() {
        Reply reply = negotiate(b, "src/App.java", "normal", 0);
        assertThat(reply.status()).isEqualTo(201);
        return reply.body().path("negotiation").path("id").asText();
    }

    @Test
    void holderIsToldOnceThenDefersAndReleasesWhileTheRequesterWaits() throws Exception {
        assertThat(sidecar.acquire(b, "src/App.java").body().path("all_acquired").asBoolean()).isFalse();
        CompletableFuture<Reply> waiting = CompletableFuture.supplyAsync(() -> negotiate(b, "src/App.java", "urgent", 600));

        List<String> notices = await().atMost(Duration.ofSeconds(10))
                .until(() -> sidecar.baton().notices().takeNotices(a.id()), list -> !list.isEmpty());
        String id = sidecar.baton().negotiations().pendingRequests().get(0).negotiationId();
        assertThat(notices).hasSize(1);
        assertThat(notices.get(0)).contains("src/App.java", id, "`baton respond " + id + " release`",
                "the login bug is in this file", "urgent");
        assertThat(sidecar.baton().notices().takeNotices(a.id())).isEmpty();

        Reply deferred = respond(a, id, Map.of("answer", "defer", "eta_minutes", 1, "reason", "finishing the refactor"));
        assertThat(deferred.status()).isEqualTo(200);
        assertThat(deferred.body().path("negotiation").path("status").asText()).isEqualTo("deferred");
        assertThat(waiting).isNotDone();

        Reply released = respond(a, id, Map.of("answer", "release"));
        assertThat(released.body().path("negotiation").path("status").asText()).isEqualTo("released");

        Reply outcome = waiting.get(10, TimeUnit.SECONDS);
        assertThat(outcome.status()).isEqualTo(201);
        assertThat(outcome.body().path("negotiation").path("id").asText()).isEqualTo(id);
        assertThat(outcome.body().path("negotiation").path("status").asText()).isEqualTo("released");
        assertThat(sidecar.acquire(b, "src/App.java").body().path("all_acquired").asBoolean()).isTrue();
        assertThat(sidecar.baton().notices().takeNotices(b.id())).isEmpty();
    }

    @Test
    void askingAgainReturnsTheOpenRequestInsteadOfANewOne() {
        String id = openRequest();
        Reply again = negotiate(b, sidecar.file("src/App.java"), "normal", 0);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().path("created").asBoolean()).isFalse();
        assertThat(again.body().path("negotiation").path("id").asText()).isEqualTo(id);
        assertThat(sidecar.baton().negotiations().list(null, false)).hasSize(1);
    }

    @Test
    void aDeferralBeyondTheWaitEndsTheWaitAtOnce() throws Exception {
        CompletableFuture<Reply> waiting = CompletableFuture.supplyAsync(() -> negotiate(b, "src/App.java", "normal", 60));
        await().atMost(Duration.ofSeconds(10)).until(() -> !sidecar.baton().negotiations().pendingRequests().isEmpty());
        String id = sidecar.baton().negotiations().pendingRequests().get(0).negotiationId();

        respond(a, id, Map.of("answer", "defer", "eta_minutes", 30, "reason", "long migration"));

        JsonNode outcome = waiting.get(20, TimeUnit.SECONDS).body().path("negotiation");
        assertThat(outcome.path("status").asText()).isEqualTo("deferred");
        assertThat(outcome.path("eta_minutes").asInt()).isEqualTo(30);
        assertThat(outcome.path("answer_reason").asText()).isEqualTo("long migration");
        assertThat(outcome.path("timeout_at").asText())
                .isEqualTo(sidecar.clock().instant().plus(Duration.ofMinutes(30)).toString());
    }

    @Test
    void resolvesWhenTheHolderReleasesTheFileItself() {
        String id = openRequest();
        sidecar.post("/v1/locks/release", Map.of("session_id", a.id(), "files", List.of(sidecar.file("src/App.java"))), a.proof());
        assertThat(negotiation(id).path("status").asText()).isEqualTo("released");
        assertThat(negotiation(id).path("resolution").asText()).isEqualTo("released");
        assertThat(sidecar.baton().negotiations().pendingRequests()).isEmpty();
    }

    @Test
    void resolvesWhenTurnEndAutoReleaseFreesTheFile() {
        String id = openRequest();
        sidecar.baton().locks().releaseIfUnchanged(a.id(), sidecar.baton().locks().locksOf(a.id()), ReleaseReason.AUTO_CLEAN);
        assertThat(negotiation(id).path("status").asText()).isEqualTo("released");
        assertThat(negotiation(id).path("resolution").asText()).isEqualTo("auto-clean");
    }

    @Test
    void resolvesWhenTheHolderSessionEnds() {
        String id = openRequest();
        assertThat(sidecar.delete("/v1/sessions/" + a.id(), Map.of()).status()).isEqualTo(200);
        assertThat(negotiation(id).path("status").asText()).isEqualTo("released");
        assertThat(negotiation(id).path("resolution").asText()).isEqualTo("session-ended");
    }

    @Test
    void isWithdrawnWhenTheRequesterSessionEnds() {
        String id = openRequest();
        sidecar.delete("/v1/sessions/" + b.id(), Map.of());
        assertThat(negotiation(id).path("status").asText()).isEqualTo("withdrawn");
        assertThat(sidecar.baton().negotiations().pendingRequests()).isEmpty();
    }

    @Test
    void resolvesWhenTheHoldersProcessDiesAndCleanupFreesTheFile() throws Exception {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            Agent doomed = sidecar.registerAgent("session-doomed", agent.pid());
            sidecar.acquire(doomed, "src/Util.java");
            CompletableFuture<Reply> waiting = CompletableFuture.supplyAsync(() -> negotiate(b, "src/Util.java", "normal", 600));
            await().atMost(Duration.ofSeconds(10)).until(() -> !sidecar.baton().negotiations().pendingRequests().isEmpty());

            agent.kill();
            assertThat(sidecar.post("/v1/cleanup-stale", Map.of(), Map.of()).status()).isEqualTo(200);

            JsonNode outcome = waiting.get(10, TimeUnit.SECONDS).body().path("negotiation");
            assertThat(outcome.path("status").asText()).isEqualTo("released");
            assertThat(outcome.path("resolution").asText()).isEqualTo("holder-exited");
        }
    }

    @Test
    void resolvesWhenTheHoldersProcessDiedAndTheRequesterTakesTheFile() throws Exception {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            Agent doomed = sidecar.registerAgent("session-doomed", agent.pid());
            sidecar.acquire(doomed, "src/Util.java");
            String id = negotiate(b, "src/Util.java", "normal", 0).body().path("negotiation").path("id").asText();
            agent.kill();

            assertThat(sidecar.acquire(b, "src/Util.java").body().path("all_acquired").asBoolean()).isTrue();
            assertThat(negotiation(id).path("status").asText()).isEqualTo("released");
            assertThat(negotiation(id).path("resolution").asText()).isEqualTo("holder-exited");
        }
    }

    @Test
    void askingADeadHolderFreesTheFileAtOnce() throws Exception {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            Agent doomed = sidecar.registerAgent("session-doomed", agent.pid());
            sidecar.acquire(doomed, "src/Util.java");
            agent.kill();

            JsonNode outcome = negotiate(b, "src/Util.java", "normal", 0).body().path("negotiation");
            assertThat(outcome.path("status").asText()).isEqualTo("released");
            assertThat(outcome.path("resolution").asText()).isEqualTo("holder-exited");
        }
    }

    @Test
    void anUrgentRequestTimesOutAfterFiveMinutesAndOnlyTheRequesterMayThenForceRelease() {
        Agent c = sidecar.registerAgent("session-c");
        String id = negotiate(b, "src/App.java", "urgent", 0).body().path("negotiation").path("id").asText();
        Map<String, Object> force = Map.of("session_id", b.id(), "file", "src/App.java");

        Reply early = sidecar.post("/v1/negotiations/force-release", force, b.proof());
        assertThat(early.status()).isEqualTo(409);
        assertThat(early.body().path("error").path("message").asText()).contains(id, "pending", "times out");

        sidecar.clock().advance(Duration.ofMinutes(4).plusSeconds(59));
        assertThat(negotiation(id).path("status").asText()).isEqualTo("pending");
        sidecar.clock().advance(Duration.ofSeconds(1));
        assertThat(negotiation(id).path("status").asText()).isEqualTo("timeout-eligible");
        assertThat(sidecar.baton().notices().takeNotices(b.id()))
                .anySatisfy(notice -> assertThat(notice).contains(id, "baton force-release src/App.java"));

        Reply third = sidecar.post("/v1/negotiations/force-release", Map.of("session_id", c.id(), "file", "src/App.java"), c.proof());
        assertThat(third.status()).isEqualTo(403);
        assertThat(third.errorCode()).isEqualTo("FORBIDDEN");
        assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java"))).isPresent();

        Reply forced = sidecar.post("/v1/negotiations/force-release", force, b.proof());
        assertThat(forced.status()).isEqualTo(200);
        assertThat(forced.body().path("negotiation").path("status").asText()).isEqualTo("released");
        assertThat(forced.body().path("negotiation").path("resolution").asText()).isEqualTo("forced");
        assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java"))).isEmpty();

        JsonNode history = sidecar.get("/v1/history?file=" + sidecar.file("src/App.java"), Map.of()).body().path("entries");
        assertThat(history).anySatisfy(entry -> {
            assertThat(entry.path("action").asText()).isEqualTo("release");
            assertThat(entry.path("session_id").asText()).isEqualTo(a.id());
            assertThat(entry.path("reason").asText()).isEqualTo("forced");
            assertThat(entry.path("actor").asText()).isEqualTo(b.id());
        });
        assertThat(history).anySatisfy(entry -> {
            assertThat(entry.path("action").asText()).isEqualTo("force-release");
            assertThat(entry.path("session_id").asText()).isEqualTo(b.id());
            assertThat(entry.path("actor").asText()).isEqualTo(a.id());
        });
    }

    @Test
    void aNormalRequestTimesOutAfterTenMinutes() {
        String id = openRequest();
        sidecar.clock().advance(Duration.ofMinutes(9).plusSeconds(59));
        assertThat(negotiation(id).path("status").asText()).isEqualTo("pending");
        sidecar.clock().advance(Duration.ofSeconds(1));
        assertThat(negotiation(id).path("status").asText()).isEqualTo("timeout-eligible");
        assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java"))).isPresent();
    }

    @Test
    void onlyThePartiesSeeANegotiation() {
        Agent c = sidecar.registerAgent("session-c");
        String id = openRequest();
        assertThat(sidecar.get("/v1/negotiations/" + id + "?session_id=" + b.id(), b.proof()).status()).isEqualTo(200);
        assertThat(sidecar.get("/v1/negotiations/" + id + "?session_id=" + a.id(), a.proof()).status()).isEqualTo(200);
        assertThat(sidecar.get("/v1/negotiations/" + id + "?session_id=" + c.id(), c.proof()).status()).isEqualTo(404);
        assertThat(sidecar.get("/v1/negotiations?session_id=" + c.id(), c.proof()).body().path("negotiations")).isEmpty();
        assertThat(sidecar.get("/v1/negotiations?session_id=" + a.id(), a.proof()).body().path("negotiations")).hasSize(1);
        assertThat(sidecar.get("/v1/negotiations", Map.of()).body().path("negotiations")).hasSize(1);
    }

    @Test
    void aWrongKeyOrNoProofIsRefusedAndChangesNothing() {
        Map<String, Object> body = Map.of("session_id", b.id(), "file", "src/App.java", "reason", "mine now");
        Reply wrongKey = sidecar.post("/v1/negotiations", body, a.proof());
        assertThat(wrongKey.status()).isEqualTo(401);
        assertThat(wrongKey.errorCode()).isEqualTo("UNAUTHORIZED");
        try (dev.baton.support.ChildProcess elsewhere = dev.baton.support.ChildProcess.sleeping()) {
            // No key, from a process its agent (another process) did not start: this JVM's connection proves nothing.
            Agent c = sidecar.registerAgent("c-elsewhere", elsewhere.pid());
            Map<String, Object> asC = Map.of("session_id", c.id(), "file", "src/App.java", "reason", "mine now");
            assertThat(sidecar.post("/v1/negotiations", asC, Map.of()).status()).isEqualTo(401);
        }
        assertThat(sidecar.baton().negotiations().list(null, false)).isEmpty();

        String id = openRequest();
        Reply forged = respond(new Agent(a.id(), b.key()), id, Map.of("answer", "release"));
        assertThat(forged.status()).isEqualTo(401);
        assertThat(negotiation(id).path("status").asText()).isEqualTo("pending");
        assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java")).orElseThrow().session()).isEqualTo(a.id());
    }

    @Test
    void invalidInputsAreRefusedWithClearErrorsAndChangeNothing() {
        String id = openRequest();
        JsonNode before = sidecar.get("/v1/negotiations?status=all", Map.of()).body();
        sidecar.baton().notices().takeNotices(a.id());
        Map<String, Object> ask = new LinkedHashMap<>(Map.of("session_id", b.id(), "file", "src/App.java", "reason", "x"));

        assertRefused(respond(a, "n-nosuch", Map.of("answer", "release")), 404, "no negotiation 'n-nosuch'");
        assertRefused(respond(a, id, Map.of("answer", "defer", "eta_minutes", 61, "reason", "later")), 400, "between 1 and 60");
        assertRefused(respond(a, id, Map.of("answer", "defer", "eta_minutes", 0, "reason", "later")), 400, "between 1 and 60");
        assertRefused(respond(a, id, Map.of("answer", "defer", "reason", "later")), 400, "needs eta_minutes");
        assertRefused(respond(a, id, Map.of("answer", "defer", "eta_minutes", 5, "reason", " ")), 400, "reason is empty");
        assertRefused(respond(a, id, Map.of("answer", "maybe")), 400, "'release' or 'defer'");
        assertRefused(respond(a, id, Map.of("answer", "release", "eta_minutes", 5)), 400, "eta_minutes belongs to a deferral");
        assertRefused(respond(b, id, Map.of("answer", "release")), 404, "is addressed to session");
        assertRefused(sidecar.post("/v1/negotiations", with(ask, "urgency", "low"), b.proof()), 400, "'normal' or 'urgent'");
        assertRefused(sidecar.post("/v1/negotiations", with(ask, "reason", ""), b.proof()), 400, "reason is empty");
        assertRefused(sidecar.post("/v1/negotiations", with(ask, "reason", "x".repeat(501)), b.proof()), 400, "limit is 500");
        assertRefused(sidecar.post("/v1/negotiations", with(ask, "wait_seconds", 601), b.proof()), 400, "wait_seconds");
        assertRefused(sidecar.post("/v1/negotiations", with(ask, "file", "src/Other.java"), b.proof()), 409, "not held by anyone");
        assertRefused(sidecar.post("/v1/negotiations", with(with(ask, "session_id", a.id()), "file", "src/App.java"), a.proof()),
                400, "held by this session");
        assertRefused(sidecar.post("/v1/negotiations", with(ask, "colour", "red"), b.proof()), 400, "unknown field 'colour'");

        assertThat(sidecar.get("/v1/negotiations?status=all", Map.of()).body()).isEqualTo(before);
        assertThat(sidecar.baton().notices().takeNotices(a.id())).isEmpty();
        assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java")).orElseThrow().session()).isEqualTo(a.id());
    }

    @Test
    void answeringAResolvedRequestIsAConflict() {
        String id = openRequest();
        respond(a, id, Map.of("answer", "release"));
        assertRefused(respond(a, id, Map.of("answer", "release")), 409, "already released");
    }

    private static Map<String, Object> with(Map<String, Object> body, String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(body);
        copy.put(key, value);
        return copy;
    }

    private static void assertRefused(Reply reply, int status, String phrase) {
        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(status);
        assertThat(reply.body().path("error").path("message").asText()).contains(phrase);
    }
}
