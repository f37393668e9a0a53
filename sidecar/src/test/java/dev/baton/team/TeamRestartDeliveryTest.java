package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.git.TestRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another machine sends to this machine's sessions while its sidecar is not running (a crash, a restart) still
 * arrives: the sidecar keeps its place in the team's event log in BATON_HOME and, started again, delivers what was
 * addressed to its sessions since, before it follows the log from its newest event.
 */
class TeamRestartDeliveryTest {

    @TempDir
    Path dir;

    private TeamMember one;
    private TeamMember two;

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void aRequestSentWhileTheHoldersSidecarWasDownReachesItOnceItRunsAgain() throws Exception {
        String url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java");
        one = TeamMember.joinAsProcess(dir, url, "machine-one",
                TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one"), Map.of());
        two = TeamMember.join(dir, url, "machine-two",
                TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "two"), Map.of());
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                two.get("/v1/team").body().path("team").path("known_elsewhere").asInt() == 1);
        one.process().kill();

        TeamMember.Reply asked = two.post("/v1/negotiations", Map.of("session_id", "bob-session",
                "file", two.file("src/App.java"), "reason", "the checkout flow"), bob);
        assertThat(asked.status()).as(asked.body().toString()).isEqualTo(201);
        String id = asked.body().path("negotiation").path("id").asText();
        one = one.killAndRestart();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> one.get("/v1/negotiations/" + id).status() == 200);
        JsonNode request = one.get("/v1/negotiations/" + id).body().path("negotiation");
        assertThat(request.path("status").asText()).isEqualTo("pending");
        assertThat(request.path("holder").asText()).isEqualTo("alice-session");
        assertThat(request.path("requester").asText()).isEqualTo("bob-session");
        assertThat(request.path("requester_machine").asText()).isEqualTo("machine-two");
    }
}
