package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.git.TestRepo;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wait-for graph across machines: each sidecar shares its sessions' waits through the team database and reads the
 * team's edges back, so a cycle through several machines is found on every one of them, with the same victim, which
 * only its own machine tells (or, under auto-release, frees).
 */
class TeamDeadlockTest {

    private static final Duration WITHIN = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final List<TeamMember> machines = new ArrayList<>();

    @AfterEach
    void leave() {
        machines.forEach(TeamMember::close);
    }

    @Test
    void twoAgentsOnTwoMachinesDeniedEachOthersFileAreOneDeadlockOnBothWithTheYoungestAskedToGiveWayOnItsMachine()
            throws Exception {
        TeamMember one = member("laptop-ana", Map.of());
        TeamMember two = member("desktop-ben", Map.of());
        assertThat(one.edit("ana-session", "src/Cart.java").out()).doesNotContain("\"deny\"");
        assertThat(two.edit("ben-session", "src/Util.java").out()).doesNotContain("\"deny\"");
        await().atMost(WITHIN).until(() -> knownElsewhere(one) == 1 && knownElsewhere(two) == 1);
        assertThat(one.get("/v1/deadlocks").body().path("deadlocks")).as("one wait is no cycle").isEmpty();

        assertThat(one.edit("ana-session", "src/Util.java").out()).contains("\"deny\"").contains("on machine desktop-ben");
        assertThat(two.edit("ben-session", "src/Cart.java").out()).contains("\"deny\"").contains("on machine laptop-ana");

        JsonNode onOne = awaitDeadlock(one);
        JsonNode onTwo = awaitDeadlock(two);
        assertThat(onOne.path("sessions")).extracting(JsonNode::asText)
                .containsExactly("ana-session", "desktop-ben/ben-session");
        assertThat(onTwo.path("sessions")).extracting(JsonNode::asText)
                .containsExactly("ben-session", "laptop-ana/ana-session");
        assertThat(onOne.path("files")).extracting(JsonNode::asText)
                .containsExactly(one.file("src/Util.java"), one.file("src/Cart.java"));
        assertThat(onOne.path("victim").asText()).as("ben started later").isEqualTo("desktop-ben/ben-session");
        assertThat(onTwo.path("victim").asText()).isEqualTo("ben-session");

        String toBen = two.edit("ben-session", "src/Util.java").out();
        assertThat(toBen).doesNotContain("\"deny\"").contains("You are the youngest session in it")
                .contains("release src/Util.java").contains("on machine laptop-ana");
        String toAna = one.edit("ana-session", "src/Cart.java").out();
        assertThat(toAna).as("ana's machine leaves the victim to its own").doesNotContain("You are the youngest")
                .contains("This is part of a deadlock").contains("on machine desktop-ben");

        // Ben gives way: his turn ends with Util.java unchanged, so it goes back, on both machines.
        two.hook("ben-session", "Stop", "claude-stop.json", null);
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(one.get("/v1/deadlocks").body().path("deadlocks")).isEmpty();
            assertThat(two.get("/v1/deadlocks").body().path("deadlocks")).isEmpty();
        });
        assertThat(one.edit("ana-session", "src/Util.java").out()).doesNotContain("\"deny\"");
    }

    @Test
    void aCycleThroughAWaitBetweenTwoSessionsOfOneMachineIsFoundOnTheOtherMachineToo() throws Exception {
        TeamMember one = member("machine-one", Map.of());
        TeamMember two = member("machine-two", Map.of());
        String alice = one.register("alice-session");
        String carol = one.register("carol-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        assertThat(one.acquire("carol-session", carol, "src/Cart.java").acquired()).isTrue();
        assertThat(two.acquire("bob-session", bob, "src/Util.java").acquired()).isTrue();
        await().atMost(WITHIN).until(() -> knownElsewhere(one) == 1 && knownElsewhere(two) == 2);

        ask(one, "alice-session", alice, "src/Util.java");
        ask(one, "carol-session", carol, "src/App.java"); // an edge inside machine one
        ask(two, "bob-session", bob, "src/Cart.java");

        JsonNode onOne = awaitDeadlock(one);
        JsonNode onTwo = awaitDeadlock(two);
        assertThat(onOne.path("sessions")).extracting(JsonNode::asText)
                .containsExactly("alice-session", "machine-two/bob-session", "carol-session");
        assertThat(onTwo.path("sessions")).extracting(JsonNode::asText)
                .containsExactly("bob-session", "machine-one/carol-session", "machine-one/alice-session");
        assertThat(onTwo.path("files")).extracting(JsonNode::asText).containsExactly(
                two.file("src/Cart.java"), "origin:github.com/acme/shop:src/App.java", two.file("src/Util.java"));
        assertThat(onOne.path("victim").asText()).isEqualTo("machine-two/bob-session");
        assertThat(onTwo.path("victim").asText()).isEqualTo("bob-session");

        // The cycle ends on both machines when its local edge does.
        assertThat(one.delete("/v1/sessions/carol-session", carol).status()).isEqualTo(200);
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(one.get("/v1/deadlocks").body().path("deadlocks")).isEmpty();
            assertThat(two.get("/v1/deadlocks").body().path("deadlocks")).isEmpty();
        });
    }

    @Test
    void underAutoReleaseOnlyTheVictimsMachineFreesItsFileAndTheOtherSideGetsIt() throws Exception {
        Map<String, String> autoRelease = Map.of("BATON_DEADLOCK_POLICY", "auto-release");
        TeamMember one = member("machine-one", autoRelease);
        TeamMember two = member("machine-two", autoRelease);
        Keys keys = aliceAndBobAskForEachOthersFile(one, two);
        String alice = keys.alice();
        String bob = keys.bob();

        await().atMost(WITHIN).until(() -> one.acquire("alice-session", alice, "src/Util.java").acquired());
        assertThat(one.acquire("alice-session", alice, "src/App.java").body().path("results").get(0)
                .path("reentrant").asBoolean()).as("alice, not the victim, keeps hers").isTrue();
        assertThat(two.acquire("bob-session", bob, "src/Util.java").acquired()).as("now alice's").isFalse();
    }

    @Test
    void endingTheSessionsOfADeadlockThroughTwoMachinesEndsItOnBothAndFreesTheirFiles() {
        TeamMember one = uncheckedMember("machine-one");
        TeamMember two = uncheckedMember("machine-two");
        Keys keys = aliceAndBobAskForEachOthersFile(one, two);
        String alice = keys.alice();
        String bob = keys.bob();
        awaitDeadlock(one);
        awaitDeadlock(two);

        assertThat(one.delete("/v1/sessions/alice-session", alice).status()).isEqualTo(200);
        assertThat(two.delete("/v1/sessions/bob-session", bob).status()).isEqualTo(200);

        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(one.get("/v1/deadlocks").body().path("deadlocks")).as("machine one").isEmpty();
            assertThat(two.get("/v1/deadlocks").body().path("deadlocks")).as("machine two").isEmpty();
            assertThat(knownElsewhere(one)).as("files known held elsewhere, machine one").isZero();
            assertThat(knownElsewhere(two)).as("files known held elsewhere, machine two").isZero();
        });
    }

    @Test
    void waitRowsWrittenIntoTheDatabaseByHandMakeNoSessionOfThisMachineADeadlockMemberUnlessItReallyWaits()
            throws Exception {
        TeamMember one = member("machine-one", Map.of("BATON_DEADLOCK_POLICY", "auto-release"));
        TeamMember two = member("machine-two", Map.of());
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        assertThat(two.acquire("bob-session", bob, "src/Util.java").acquired()).isTrue();
        await().atMost(WITHIN).until(() -> knownElsewhere(one) == 1 && knownElsewhere(two) == 1);

        // Someone with the database's credentials forges both halves of a cycle: alice (who waits for nothing) and bob.
        TeamPostgres.execute(url, """
                INSERT INTO baton_team_waits (machine, session, repository, path) VALUES
                  ('machine-one', 'alice-session', 'origin:github.com/acme/shop', 'src/Util.java'),
                  ('machine-two', 'bob-session', 'origin:github.com/acme/shop', 'src/App.java')""");
        TeamPostgres.execute(url, "NOTIFY baton_team, 'waits'");
        // Bob really waits for App.java: machine two shares it, and machine one reads the graph again.
        ask(two, "bob-session", bob, "src/App.java");
        await().atMost(WITHIN).until(() -> TeamPostgres.count(url,
                "SELECT count(*) FROM baton_team_waits WHERE machine = 'machine-two'") == 1);
        long reads = one.get("/v1/team").body().path("team").path("statements").path("wait_reads").asLong();
        await().atMost(WITHIN).until(() ->
                one.get("/v1/team").body().path("team").path("statements").path("wait_reads").asLong() > reads + 1);

        assertThat(one.get("/v1/deadlocks").body().path("deadlocks")).as("alice waits for nothing here").isEmpty();
        assertThat(one.acquire("alice-session", alice, "src/App.java").body().path("results").get(0)
                .path("reentrant").asBoolean()).as("nothing of alice's was freed").isTrue();
    }

    @Test
    void aDeadlockThroughAMachineWhoseSidecarWasKilledEndsWhenItsLeaseRunsOut() throws Exception {
        Map<String, String> shortLease = Map.of("BATON_TEAM_TTL", "3");
        TeamMember one = member("machine-one", shortLease);
        TeamMember two = join(TeamMember::joinAsProcess, "machine-two", shortLease);
        Keys keys = aliceAndBobAskForEachOthersFile(one, two);
        String alice = keys.alice();
        awaitDeadlock(one);

        two.process().kill();

        await().atMost(WITHIN).until(() -> one.get("/v1/deadlocks").body().path("deadlocks").isEmpty());
        await().atMost(WITHIN).until(() -> one.acquire("alice-session", alice, "src/Util.java").acquired());
    }

    private record Keys(String alice, String bob) {
    }

    /** Alice on machine one holds App.java and asks for Util.java, which Bob holds on machine two and who asks for hers. */
    private static Keys aliceAndBobAskForEachOthersFile(TeamMember one, TeamMember two) {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        assertThat(two.acquire("bob-session", bob, "src/Util.java").acquired()).isTrue();
        await().atMost(WITHIN).until(() -> knownElsewhere(one) == 1 && knownElsewhere(two) == 1);
        ask(one, "alice-session", alice, "src/Util.java");
        ask(two, "bob-session", bob, "src/App.java");
        return new Keys(alice, bob);
    }

    private TeamMember uncheckedMember(String machine) {
        try {
            return member(machine, Map.of());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private TeamMember member(String machine, Map<String, String> settings) throws IOException {
        return join(TeamMember::join, machine, settings);
    }

    private interface Joining {
        TeamMember join(Path dir, String url, String machine, Path clone, Map<String, String> settings) throws IOException;
    }

    private TeamMember join(Joining how, String machine, Map<String, String> settings) throws IOException {
        if (machines.isEmpty()) {
            url = TeamPostgres.newDatabase();
            origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Cart.java", "src/Util.java");
        }
        TeamMember member = how.join(dir, url, machine,
                TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, machine), settings);
        machines.add(member);
        return member;
    }

    private String url;
    private TestRepo origin;

    private static int knownElsewhere(TeamMember machine) {
        return machine.get("/v1/team").body().path("team").path("known_elsewhere").asInt();
    }

    private static void ask(TeamMember machine, String session, String key, String file) {
        TeamMember.Reply asked = machine.post("/v1/negotiations", Map.of("session_id", session, "file", machine.file(file),
                "reason", "needed next"), key);
        assertThat(asked.status()).as(asked.body().toString()).isEqualTo(201);
    }

    private static JsonNode awaitDeadlock(TeamMember machine) {
        await().atMost(WITHIN).until(() -> machine.get("/v1/deadlocks").body().path("deadlocks").size() == 1);
        return machine.get("/v1/deadlocks").body().path("deadlocks").get(0);
    }
}
