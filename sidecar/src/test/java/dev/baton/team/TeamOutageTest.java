package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The team database goes away and comes back (a server of its own, stopped and started on the same port and data):
 * sidecars keep what they know, tell their agents, and reconcile on reconnect; strict mode refuses instead.
 */
class TeamOutageTest {

    @TempDir
    Path dir;

    private EmbeddedPostgres database;
    private int port;
    private String url;
    private final List<TeamMember> members = new ArrayList<>();
    private TestRepo origin;

    @BeforeEach
    void databaseOfItsOwn() throws IOException {
        database = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("pgdata")).setCleanDataDirectory(false).start();
        port = database.getPort();
        url = "postgresql://postgres@127.0.0.1:" + port + "/postgres";
        origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Util.java");
    }

    @AfterEach
    void stop() throws IOException {
        members.forEach(TeamMember::close);
        database.close();
    }

    @Test
    void whileTheDatabaseIsDownKnownHoldsStayDeniedNewFilesAreGrantedAndOnReconnectADoubleTakeIsAConflictForBoth()
            throws IOException {
        TeamMember one = member("machine-one", Map.of());
        TeamMember two = member("machine-two", Map.of());
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> two.get("/v1/team").body().path("team").path("known_elsewhere").asInt() == 1);

        database.close();
        TeamMember.Reply stillHeld = two.acquire("bob-session", bob, "src/App.java");
        TeamMember.Reply bobsNewFile = two.acquire("bob-session", bob, "src/Util.java");
        TeamMember.Reply alicesNewFile = one.acquire("alice-session", alice, "src/Util.java");

        assertThat(stillHeld.acquired()).isFalse();
        assertThat(stillHeld.holder().path("session").asText()).isEqualTo("alice-session");
        assertThat(stillHeld.holder().path("note").asText()).contains("does not answer").contains("last known holder");
        assertThat(bobsNewFile.acquired()).isTrue();
        assertThat(alicesNewFile.acquired()).isTrue();
        assertThat(two.sidecar().baton().notices().takeNotices("bob-session"))
                .anySatisfy(notice -> assertThat(notice).contains("team database does not answer"));
        assertThat(two.get("/v1/team").body().path("team").path("connected").asBoolean()).isFalse();

        restart();

        await().atMost(Duration.ofSeconds(60)).until(() -> one.get("/v1/team").body().path("team").path("connected").asBoolean()
                && two.get("/v1/team").body().path("team").path("connected").asBoolean());
        List<String> aliceHears = new ArrayList<>();
        List<String> bobHears = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            aliceHears.addAll(one.sidecar().baton().notices().takeNotices("alice-session"));
            bobHears.addAll(two.sidecar().baton().notices().takeNotices("bob-session"));
            assertThat(aliceHears).anySatisfy(notice -> assertThat(notice).contains("conflict on").contains("Util.java"));
            assertThat(bobHears).anySatisfy(notice -> assertThat(notice).contains("conflict on").contains("Util.java"));
        });
        assertThat(one.acquire("alice-session", alice, "src/Util.java").acquired()).as("nothing silently dropped").isTrue();
        assertThat(two.acquire("bob-session", bob, "src/Util.java").acquired()).as("nothing silently dropped").isTrue();
        assertThat(two.acquire("bob-session", bob, "src/App.java").acquired()).as("checked across machines again").isFalse();
    }

    @Test
    void aStrictSidecarRefusesNewLocksWhileTheDatabaseIsDownAndGrantsThemOnceItIsBack() throws IOException {
        TeamMember strict = member("machine-strict", Map.of("BATON_TEAM_STRICT", "1"));
        String carol = strict.register("carol-session");

        database.close();
        TeamMember.Reply refused = strict.acquire("carol-session", carol, "src/App.java");

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.body().path("error").path("message").asText()).contains("BATON_TEAM_STRICT=1")
                .contains("does not answer");
        restart();
        await().atMost(Duration.ofSeconds(60)).until(() -> strict.acquire("carol-session", carol, "src/App.java").acquired());
    }

    private TeamMember member(String machine, Map<String, String> settings) throws IOException {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.put("BATON_TEAM_TTL", "30");
        TeamMember member = TeamMember.join(dir, url, machine,
                TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, machine), all);
        members.add(member);
        return member;
    }

    private void restart() throws IOException {
        database = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("pgdata")).setCleanDataDirectory(false)
                .setPort(port).start();
    }
}
