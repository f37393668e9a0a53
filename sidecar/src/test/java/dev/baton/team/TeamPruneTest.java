package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The team database does not grow without end: a sidecar that joins forgets events older than a day, and sessions and
 * machines gone as long that hold nothing, and keeps everything still in use. A sidecar away for longer than events
 * are kept notices the gap and reads the other machines' files again instead of going on from where it left off.
 */
class TeamPruneTest {

    @TempDir
    Path dir;

    private String url;
    private Path clone;
    private TeamMember one;
    private TeamMember two;

    @BeforeEach
    void team() throws Exception {
        url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Cart.java");
        clone = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one");
    }

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void aJoiningSidecarForgetsWhatIsOlderThanADayAndHoldsNothingAndKeepsTheRest() throws Exception {
        one = TeamMember.join(dir, url, "machine-one", clone, Map.of());
        String alice = one.register("alice-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        execute("""
                INSERT INTO baton_team_machines VALUES ('machine-gone', 'h', now() - interval '3 days', now() - interval '3 days',
                  now() - interval '9 days');
                INSERT INTO baton_team_sessions (machine, session, agent, seen_at) VALUES
                  ('machine-gone', 'old-session', 'codex', now() - interval '3 days'),
                  ('machine-one', 'recent-session', 'codex', now() - interval '1 hour');
                UPDATE baton_team_sessions SET seen_at = now() - interval '5 days' WHERE session = 'alice-session';
                UPDATE baton_team_events SET at = now() - interval '2 days';
                WITH numbered AS (UPDATE baton_team_event_counter SET seq = seq + 1 RETURNING seq)
                INSERT INTO baton_team_events (seq, at, machine, kind) SELECT seq, now(), 'machine-one', 'recent' FROM numbered""");
        long eventsBefore = count("SELECT count(*) FROM baton_team_events");

        two = TeamMember.join(dir, url, "machine-two", clone, Map.of());

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> count("SELECT count(*) FROM baton_team_events WHERE at < now() - interval '1 day'") == 0);
        assertThat(eventsBefore).isGreaterThan(1);
        assertThat(count("SELECT count(*) FROM baton_team_events WHERE kind = 'recent'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM baton_team_machines WHERE machine = 'machine-gone'")).isZero();
        assertThat(count("SELECT count(*) FROM baton_team_sessions WHERE session = 'old-session'")).isZero();
        assertThat(count("SELECT count(*) FROM baton_team_sessions WHERE session = 'recent-session'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM baton_team_sessions WHERE session = 'alice-session'"))
                .as("a session that holds a file stays, however long ago it was seen").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM baton_team_claims")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM baton_team_machines WHERE machine IN ('machine-one', 'machine-two')")).isEqualTo(2);
        assertThat(two.get("/v1/team").body().path("team").path("statements").path("prunes").asLong()).isEqualTo(1);
    }

    @Test
    void aSidecarAwayLongerThanEventsAreKeptReadsTheOtherMachinesFilesAgain() throws Exception {
        one = TeamMember.join(dir, url, "machine-one", clone, Map.of());
        await().atMost(Duration.ofSeconds(30)).until(() -> one.get("/v1/team").body().path("team").path("connected").asBoolean());
        assertThat(knownElsewhere()).isZero();

        // While it was away: another machine took a file, and its claim's event was pruned along with every older one.
        execute("""
                INSERT INTO baton_team_machines VALUES ('machine-three', 'h', now() + interval '1 hour', now(), now());
                INSERT INTO baton_team_sessions (machine, session, agent, seen_at) VALUES ('machine-three', 'carol', 'codex', now());
                INSERT INTO baton_team_claims VALUES ('origin:github.com/acme/shop', 'src/Cart.java', 'machine-three', 'carol',
                  nextval('baton_team_fences'), now());
                UPDATE baton_team_event_counter SET seq = seq + 5;
                DELETE FROM baton_team_events""");
        execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid()");

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> knownElsewhere() == 1);
        assertThat(one.get("/v1/team").body().path("team").path("connected").asBoolean()).isTrue();
    }

    private long knownElsewhere() {
        return one.get("/v1/team").body().path("team").path("known_elsewhere").asLong();
    }

    private void execute(String sql) throws SQLException {
        TeamPostgres.execute(url, sql);
    }

    private long count(String sql) throws SQLException {
        return TeamPostgres.count(url, sql);
    }
}
