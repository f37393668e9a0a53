package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar started again after another machine took one of its files knows that hold from its restart; the edit it
 * would deny on that knowledge is confirmed against the claims first, so a file released since is not denied as held.
 */
class TeamLockingLapsedHoldTest {

    private static final Map<String, String> SHORT_LEASE = Map.of("BATON_TEAM_TTL", "3");

    @TempDir
    Path dir;

    private String url;
    private TeamMember one;
    private TeamMember two;
    private String alice;
    private String bob;

    /**
     * Alice on machine one (a sidecar in its own JVM) holds App.java; that sidecar is killed, bob on machine two takes
     * the file once its lease ran out, and machine one is started again on the same home, which finds bob's hold.
     */
    @BeforeEach
    void machineOneStartsAgainAfterBobTookAlicesFile() throws IOException, InterruptedException {
        url = TeamPostgres.newDatabase();
        TestRepo origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Util.java");
        Path first = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "one");
        Path second = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "two");
        one = TeamMember.joinAsProcess(dir, url, "machine-one", first, SHORT_LEASE);
        two = TeamMember.join(dir, url, "machine-two", second, SHORT_LEASE);
        alice = one.register("alice-session");
        bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        one.process().kill();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());

        one = one.killAndRestart();

        TeamMember.HookRun told = one.edit("alice-session", "src/Util.java");
        assertThat(told.out()).as("machine one found bob's hold when it started: " + told.err())
                .contains("App.java is no longer yours").contains("session bob-session on machine machine-two took it");
    }

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void aFileTheOtherMachineReleasedSinceIsGrantedWithOneClaimNotDeniedAsHeld() throws Exception {
        two.release("bob-session", bob, "src/App.java");
        await().atMost(Duration.ofSeconds(30)).until(() -> claimsOf("src/App.java") == 0);
        long claimsBefore = claimsSentBy(one);

        TeamMember.Reply again = one.acquire("alice-session", alice, "src/App.java");

        assertThat(again.acquired()).as(again.body().toString()).isTrue();
        assertThat(claimsSentBy(one)).as("the denial was confirmed with one claim").isEqualTo(claimsBefore + 1);
        assertThat(two.acquire("bob-session", bob, "src/App.java").holder().path("session").asText())
                .as("claimed in the team, not on machine one's word").isEqualTo("alice-session");
    }

    @Test
    void aFileStillHeldIsDeniedNamingTheHolderTheDatabaseHasNow() throws Exception {
        String dave = two.register("dave-session");
        two.release("bob-session", bob, "src/App.java");
        await().atMost(Duration.ofSeconds(30)).until(() -> two.acquire("dave-session", dave, "src/App.java").acquired());

        TeamMember.Reply again = one.acquire("alice-session", alice, "src/App.java");

        assertThat(again.acquired()).as(again.body().toString()).isFalse();
        assertThat(again.holder().path("session").asText()).isEqualTo("dave-session");
        assertThat(again.holder().path("machine").asText()).isEqualTo("machine-two");
        assertThat(again.holder().path("note").asText()).contains("claim on it ended while its sidecar was stopped");
        assertThat(two.acquire("dave-session", dave, "src/App.java").body().path("results").get(0).path("reentrant")
                .asBoolean()).as("the holder keeps it").isTrue();
    }

    @Test
    void aFileTheOtherMachineChangedAndReleasedSinceIsRefusedUntilThisClonePullsAsAnyClaimIs() throws Exception {
        TestRepo clone = TestRepo.at(two.workingTree());
        clone.write("src/App.java", "class App { int total; }\n");
        clone.git("commit", "-q", "-am", "total");
        String commit = clone.git("rev-parse", "HEAD").strip();
        two.release("bob-session", bob, "src/App.java");
        await().atMost(Duration.ofSeconds(30)).until(() -> claimsOf("src/App.java") == 0);

        TeamMember.Reply again = one.acquire("alice-session", alice, "src/App.java");

        assertThat(again.acquired()).as(again.body().toString()).isFalse();
        assertThat(again.holder().path("alive").asText()).isEqualTo("released");
        assertThat(again.holder().path("note").asText()).startsWith("pull first").contains(commit.substring(0, 12))
                .contains("machine-two");
    }

    private long claimsOf(String path) throws java.sql.SQLException {
        return TeamPostgres.count(url, "SELECT count(*) FROM baton_team_claims WHERE path = '" + path + "'");
    }

    private static long claimsSentBy(TeamMember machine) {
        return machine.get("/v1/team").body().path("team").path("statements").path("claims").asLong();
    }
}
