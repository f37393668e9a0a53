package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A machine that vanishes or freezes: its sidecar is a process of its own, killed or stopped, and its sessions'
 * files go to the other machine after the lease TTL (on the database's clock), not before.
 */
class TeamFailureTest {

    private static final Map<String, String> SHORT_LEASE = Map.of("BATON_TEAM_TTL", "3");

    @TempDir
    Path dir;

    private String url;
    private Path first;
    private Path second;
    private TeamMember one;
    private TeamMember two;

    @BeforeEach
    void clones() throws IOException {
        url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java");
        first = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one");
        second = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "two");
    }

    @AfterEach
    void leave() {
        if (one != null) {
            if (one.process() != null) {
                one.process().pause(false);
            }
            one.close();
        }
        if (two != null) {
            two.close();
        }
    }

    @Test
    void aKilledSidecarsFilesGoToTheOtherMachineOnlyOnceItsLeaseRanOut() throws Exception {
        String[] keys = aliceOnMachineOneHoldsApp();
        String alice = keys[0];
        String bob = keys[1];

        one.process().kill();
        boolean leaseLeftAtKill = leaseValid("machine-one");
        TeamMember.Reply rightAfter = two.acquire("bob-session", bob, "src/App.java");

        assertThat(leaseLeftAtKill).isTrue();
        assertThat(rightAfter.acquired()).as("denied while the dead machine's lease runs").isFalse();
        assertThat(rightAfter.holder().path("machine").asText()).isEqualTo("machine-one");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());
        assertThat(leaseValid("machine-one")).as("taken only after the lease ran out").isFalse();
    }

    @Test
    void aSidecarRestartedAfterAnotherMachineTookItsFileDoesNotGrantItAgain() throws Exception {
        String[] keys = aliceOnMachineOneHoldsApp();
        String alice = keys[0];
        String bob = keys[1];
        one.process().kill();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());

        one = one.killAndRestart(); // started again on the same home, as a hook starts it
        TeamMember.HookRun told = one.edit("alice-session", "src/Util.java"); // its next call, of another file
        TeamMember.Reply again = one.acquire("alice-session", alice, "src/App.java");

        assertThat(again.acquired()).as(again.body().toString()).isFalse();
        assertThat(again.holder().path("session").asText()).isEqualTo("bob-session");
        assertThat(again.holder().path("machine").asText()).isEqualTo("machine-two");
        assertThat(again.holder().path("note").asText()).doesNotContain("did not answer")
                .contains("claim on it ended while its sidecar was stopped");
        assertThat(told.out()).as(told.err()).contains("App.java is no longer yours")
                .contains("session bob-session on machine machine-two took it");
        assertThat(two.acquire("bob-session", bob, "src/App.java").body().path("results").get(0).path("reentrant")
                .asBoolean()).as("the new holder keeps it").isTrue();
    }

    @Test
    void aPausedSidecarLosesItsFileAndItsSessionsNextEditIsDeniedSayingWhy() throws Exception {
        String[] keys = aliceOnMachineOneHoldsApp();
        String alice = keys[0];
        String bob = keys[1];
        long fenceBefore = fenceOf("src/App.java");

        one.process().pause(true);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());
        one.process().pause(false);
        TeamMember.Reply resumed = one.acquire("alice-session", alice, "src/App.java");

        assertThat(fenceOf("src/App.java")).isGreaterThan(fenceBefore);
        assertThat(resumed.acquired()).as(resumed.body().toString()).isFalse();
        assertThat(resumed.holder().path("session").asText()).isEqualTo("bob-session");
        assertThat(resumed.holder().path("machine").asText()).isEqualTo("machine-two");
        assertThat(resumed.holder().path("note").asText()).contains("lease on it lapsed").contains("fencing number");
        assertThat(two.acquire("bob-session", bob, "src/App.java").body().path("results").get(0).path("reentrant")
                .asBoolean()).as("the new holder keeps it").isTrue();
    }

    /**
     * Machine one (a sidecar in its own JVM, to kill or pause) and machine two, alice on one holding App.java and bob on
     * two; returns their keys.
     */
    private String[] aliceOnMachineOneHoldsApp() {
        one = TeamMember.joinAsProcess(dir, url, "machine-one", first, SHORT_LEASE);
        try {
            two = TeamMember.join(dir, url, "machine-two", second, SHORT_LEASE);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        return new String[] {alice, bob};
    }

    private boolean leaseValid(String machine) throws SQLException {
        try (Connection db = connect(); Statement statement = db.createStatement();
             ResultSet row = statement.executeQuery("SELECT lease_until > now() FROM baton_team_machines WHERE machine = '"
                     + machine + "'")) {
            assertThat(row.next()).isTrue();
            return row.getBoolean(1);
        }
    }

    private long fenceOf(String path) throws SQLException {
        try (Connection db = connect(); Statement statement = db.createStatement();
             ResultSet row = statement.executeQuery("SELECT fence FROM baton_team_claims WHERE path = '" + path + "'")) {
            assertThat(row.next()).isTrue();
            return row.getLong(1);
        }
    }

    private Connection connect() throws SQLException {
        return TeamPostgres.connect(url);
    }
}
