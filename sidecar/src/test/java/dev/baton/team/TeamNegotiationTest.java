package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.git.TestRepo;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.lock.ReleaseReason;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A negotiation between sessions of two machines of a team: the request reaches the holder on its machine at its next
 * hook call, and the answer (release, defer) or the withdrawal reaches the other side through the team's event log.
 */
class TeamNegotiationTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private TeamMember one;
    private TeamMember two;
    private String alice;
    private String bob;

    @BeforeEach
    void aliceOnMachineOneHoldsAFileBobOnMachineTwoWants() throws IOException {
        String url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Util.java");
        one = TeamMember.join(dir, url, "machine-one", TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one"),
                Map.of());
        two = TeamMember.join(dir, url, "machine-two", TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "two"),
                Map.of());
        alice = one.register("alice-session");
        bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        await().atMost(WITHIN).until(() -> two.get("/v1/team").body().path("team").path("known_elsewhere").asInt() == 1);
    }

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void theHolderIsToldAtItsNextHookCallAndItsReleaseLetsTheRequesterTakeTheFile() throws Exception {
        CompletableFuture<TeamMember.Reply> waiting = CompletableFuture.supplyAsync(() -> two.post("/v1/negotiations",
                Map.of("session_id", "bob-session", "file", two.file("src/App.java"), "reason", "the checkout flow",
                        "wait_seconds", 30), bob));
        String id = awaitRequestAt(one, "alice-session", notice -> assertThat(notice)
                .contains("claude-code session bob-session on machine machine-two asks for src/App.java")
                .contains("the checkout flow").contains("baton respond"));

        TeamMember.Reply released = one.post("/v1/negotiations/" + id + "/respond",
                Map.of("session_id", "alice-session", "answer", "release"), alice);

        assertThat(released.status()).as(released.body().toString()).isEqualTo(200);
        TeamMember.Reply woken = waiting.get(30, TimeUnit.SECONDS);
        assertThat(woken.status()).as(woken.body().toString()).isEqualTo(201);
        assertThat(woken.body().path("negotiation").path("id").asText()).isEqualTo(id);
        assertThat(woken.body().path("negotiation").path("status").asText()).isEqualTo("released");
        assertThat(woken.body().path("negotiation").path("holder_machine").asText()).isEqualTo("machine-one");
        await().atMost(WITHIN).until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());
    }

    @Test
    void aDeferralReachesTheRequestersMachineWithItsEtaAndReason() {
        String id = ask();
        String told = awaitRequestAt(one, "alice-session", notice -> assertThat(notice).contains("machine-two"));
        assertThat(told).isEqualTo(id);

        TeamMember.Reply deferred = one.post("/v1/negotiations/" + id + "/respond", Map.of("session_id", "alice-session",
                "answer", "defer", "eta_minutes", 15, "reason", "finishing the tax rounding"), alice);

        assertThat(deferred.status()).as(deferred.body().toString()).isEqualTo(200);
        await().atMost(WITHIN).untilAsserted(() -> {
            JsonNode there = negotiation(two, id);
            assertThat(there.path("status").asText()).isEqualTo("deferred");
            assertThat(there.path("eta_minutes").asInt()).isEqualTo(15);
            assertThat(there.path("answer_reason").asText()).isEqualTo("finishing the tax rounding");
        });
        assertThat(two.sidecar().baton().notices().takeNotices("bob-session")).anySatisfy(notice -> assertThat(notice)
                .contains("your request " + id).contains("claude-code session alice-session on machine machine-one")
                .contains("15 more min").contains("finishing the tax rounding"));
    }

    @Test
    void withdrawingOnTheRequestersMachineClosesTheHoldersRequest() {
        String id = ask();
        await().atMost(WITHIN).until(() -> one.get("/v1/negotiations/" + id).status() == 200);

        TeamMember.Reply withdrawn = two.post("/v1/negotiations/" + id + "/withdraw", Map.of("session_id", "bob-session"),
                bob);

        assertThat(withdrawn.status()).as(withdrawn.body().toString()).isEqualTo(200);
        await().atMost(WITHIN).until(() -> negotiation(one, id)
                .path("status").asText().equals("withdrawn"));
        assertThat(one.sidecar().baton().notices().takeNotices("alice-session"))
                .noneSatisfy(notice -> assertThat(notice).contains(id));
    }

    @Test
    void theRequestersSessionEndingWithdrawsTheRequestOnTheHoldersMachine() {
        String id = ask();
        await().atMost(WITHIN).until(() -> one.get("/v1/negotiations/" + id).status() == 200);

        assertThat(two.delete("/v1/sessions/bob-session", bob).status()).isEqualTo(200);

        await().atMost(WITHIN).untilAsserted(() -> {
            JsonNode there = negotiation(one, id);
            assertThat(there.path("status").asText()).isEqualTo("withdrawn");
            assertThat(there.path("resolution").asText()).isEqualTo("requester-ended");
        });
    }

    @Test
    void theHoldersSessionEndingResolvesTheRequestOnTheRequestersMachine() {
        String id = ask();
        await().atMost(WITHIN).until(() -> one.get("/v1/negotiations/" + id).status() == 200);

        assertThat(one.delete("/v1/sessions/alice-session", alice).status()).isEqualTo(200);

        await().atMost(WITHIN).until(() -> negotiation(two, id).path("status").asText()
                .equals("released"));
        assertThat(two.sidecar().baton().notices().takeNotices("bob-session"))
                .anySatisfy(notice -> assertThat(notice).contains("your request " + id).contains("was released"));
        assertThat(two.acquire("bob-session", bob, "src/App.java").acquired()).isTrue();
    }

    @Test
    void aRequestForAFileItsHolderNoLongerHoldsIsAnsweredReleased() {
        one.register("carol-session");
        String file = one.file("src/App.java");
        one.sidecar().baton().ledger().write(tx -> {
            // The file passes to another session of machine one: the team still names alice as its holder.
            FileLock held = tx.world().find(LockRows.FILES, file).orElseThrow();
            LockRows.remove(tx, held, ReleaseReason.RELEASED, null);
            LockRows.save(tx, new FileLock(file, "carol-session", tx.now(), null, false), true);
            return null;
        });

        String id = ask();

        await().atMost(WITHIN).until(() -> negotiation(two, id).path("status").asText().equals("released"));
        assertThat(one.get("/v1/negotiations/" + id).status()).as("nothing opened for carol").isEqualTo(404);
    }

    @Test
    void forceReleasingAFileHeldOnAnotherMachineIsRefusedWithWhatToDo() {
        ask();

        TeamMember.Reply refused = two.post("/v1/negotiations/force-release", Map.of("session_id", "bob-session",
                "file", two.file("src/App.java")), bob);

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().path("error").path("message").asText())
                .contains("on machine machine-one").contains("cannot take another machine's lock")
                .contains("baton msg send alice-session").contains("machine machine-one");
        assertThat(one.acquire("alice-session", alice, "src/App.java").body().path("results").get(0)
                .path("reentrant").asBoolean()).as("still alice's").isTrue();
    }

    @Test
    void theSweeperKeepsARequestWhoseOtherPartyRunsOnAnotherMachine() {
        String id = ask();
        await().atMost(WITHIN).until(() -> one.get("/v1/negotiations/" + id).status() == 200);

        one.sidecar().baton().sweepCoordination();
        two.sidecar().baton().sweepCoordination();

        assertThat(negotiation(one, id).path("status").asText())
                .isEqualTo("pending");
        assertThat(negotiation(two, id).path("status").asText()).isEqualTo("pending");
    }

    private String ask() {
        TeamMember.Reply asked = two.post("/v1/negotiations", Map.of("session_id", "bob-session",
                "file", two.file("src/App.java"), "reason", "the checkout flow"), bob);
        assertThat(asked.status()).as(asked.body().toString()).isEqualTo(201);
        return asked.body().path("negotiation").path("id").asText();
    }

    /** Waits for the holder's next hook call to carry a request; returns its id. */
    private static String awaitRequestAt(TeamMember machine, String session,
                                         java.util.function.Consumer<String> expected) {
        List<String> heard = new ArrayList<>();
        await().atMost(WITHIN).untilAsserted(() -> {
            heard.addAll(machine.sidecar().baton().notices().takeNotices(session));
            assertThat(heard).anySatisfy(notice -> assertThat(notice).contains("asks for"));
        });
        String notice = heard.stream().filter(line -> line.contains("asks for")).findFirst().orElseThrow();
        expected.accept(notice);
        return notice.replaceAll("(?s).*request (n-[a-z0-9]+)\\).*", "$1");
    }

    /** The negotiation as the machine's supervisor view shows it. */
    private static JsonNode negotiation(TeamMember machine, String id) {
        return machine.get("/v1/negotiations/" + id).body().path("negotiation");
    }
}
