package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Someone with the team database's URL (an agent that read it from its environment) removes a machine's claim by
 * hand to take the file elsewhere. The machine's next lease renewal, which counts its claims in the same statement,
 * finds one missing while its lease was valid: it claims the file again, or, taken meanwhile, makes it a conflict
 * its session hears of, naming the cause; nothing stays silently held twice.
 */
class TeamTamperTest {

    private static final Map<String, String> SHORT_LEASE = Map.of("BATON_TEAM_TTL", "3");

    @TempDir
    Path dir;

    private String url;
    private TeamMember one;

    @BeforeEach
    void machine() throws Exception {
        url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Cart.java");
        one = TeamMember.join(dir, url, "machine-one", TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one"),
                SHORT_LEASE);
    }

    @AfterEach
    void leave() {
        one.close();
    }

    @Test
    void aClaimRemovedByHandIsClaimedAgainAtTheNextRenewal() throws Exception {
        String alice = one.register("alice-session");
        assertThat(one.acquire("alice-session", alice, "src/Cart.java").acquired()).isTrue();

        execute("DELETE FROM baton_team_claims WHERE path = 'src/Cart.java'");

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() ->
                count("SELECT count(*) FROM baton_team_claims WHERE path = 'src/Cart.java' AND machine = 'machine-one'") == 1);
    }

    @Test
    void aClaimRemovedByHandAndTakenElsewhereBecomesAConflictTheHolderHearsOf() throws Exception {
        String alice = one.register("alice-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        assertThat(one.acquire("alice-session", alice, "src/Cart.java").acquired()).isTrue();

        // In one transaction, as a forger would: alice's claim goes, another machine's comes.
        execute("""
                INSERT INTO baton_team_machines VALUES ('machine-forged', 'h', now() + interval '1 hour', now(), now());
                INSERT INTO baton_team_sessions (machine, session, agent, seen_at) VALUES ('machine-forged', 'mallory', 'codex', now());
                DELETE FROM baton_team_claims WHERE path = 'src/App.java';
                INSERT INTO baton_team_claims VALUES ('origin:github.com/acme/shop', 'src/App.java', 'machine-forged', 'mallory',
                  nextval('baton_team_fences'), now())""");

        List<String> heard = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            heard.addAll(one.sidecar().baton().notices().takeNotices("alice-session"));
            assertThat(heard).anySatisfy(notice -> assertThat(notice).contains("conflict on").contains("App.java")
                    .contains("removed while your machine's lease was valid").contains("mallory")
                    .contains("machine-forged"));
        });
        assertThat(count("SELECT count(*) FROM baton_team_events WHERE kind = 'conflict' AND detail = 'machine-forged/mallory'"
                + " AND body LIKE '%removed while its machine''s lease was valid%'"))
                .as("the other side hears it through the event log, with the cause").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM baton_team_claims WHERE machine = 'machine-one'"))
                .as("the untouched claim stays").isEqualTo(1);
    }

    private void execute(String sql) throws SQLException {
        TeamPostgres.execute(url, sql);
    }

    private long count(String sql) throws SQLException {
        return TeamPostgres.count(url, sql);
    }
}
