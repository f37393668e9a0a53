package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.git.TestRepo;
import dev.baton.support.BatonCli;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two machines of one team, each a sidecar with its own home and clone, share one lock space in PostgreSQL. */
class TeamLockingTest {

    @TempDir
    Path dir;

    private String url;
    private TestRepo origin;
    private TeamMember one;
    private TeamMember two;

    @BeforeEach
    void twoMachinesWithClonesOfOneRepository() throws IOException {
        url = TeamPostgres.newDatabase();
        origin = TestRepo.create(dir.resolve("origin"), "src/App.java", "src/Util.java");
        Path first = TeamMember.cloneOf(origin, "https://GitHub.com/acme/shop.git", dir, "one");
        Path second = TeamMember.cloneOf(origin, "git@github.com:acme/shop", dir, "two");
        one = TeamMember.join(dir, url, "machine-one", first, Map.of());
        two = TeamMember.join(dir, url, "machine-two", second, Map.of());
    }

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void aFileHeldOnOneMachineIsDeniedOnTheOtherWithItsHolderAndMachineNamed() {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");

        assertThat(one.acquire("alice-session", alice, "src/App.java").body().path("all_acquired").asBoolean()).isTrue();
        TeamMember.Reply denied = two.acquire("bob-session", bob, "src/App.java");

        assertThat(denied.body().path("all_acquired").asBoolean()).as(denied.body().toString()).isFalse();
        JsonNode holder = denied.body().path("results").get(0).path("holder");
        assertThat(holder.path("session").asText()).isEqualTo("alice-session");
        assertThat(holder.path("machine").asText()).isEqualTo("machine-one");
        assertThat(holder.path("agent").asText()).isEqualTo("claude-code");
    }

    @Test
    void theHolderKeepsItsFileAcrossEditsAndOtherFilesStayFreeElsewhere() {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        one.acquire("alice-session", alice, "src/App.java");

        assertThat(one.acquire("alice-session", alice, "src/App.java").body().path("results").get(0)
                .path("reentrant").asBoolean()).isTrue();
        assertThat(two.acquire("bob-session", bob, "src/Util.java").body().path("all_acquired").asBoolean()).isTrue();
        assertThat(one.acquire("alice-session", alice, "src/Util.java").body().path("results").get(0)
                .path("holder").path("session").asText()).isEqualTo("bob-session");
    }

    @Test
    void aFileReleasedOnOneMachineCanBeTakenOnTheOther() {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        assertThat(two.acquire("bob-session", bob, "src/App.java").body().path("all_acquired").asBoolean()).isFalse();

        one.release("alice-session", alice, "src/App.java");

        await().atMost(Duration.ofSeconds(30)).until(() ->
                two.acquire("bob-session", bob, "src/App.java").body().path("all_acquired").asBoolean());
        assertThat(one.acquire("alice-session", alice, "src/App.java").body().path("results").get(0)
                .path("holder").path("machine").asText()).isEqualTo("machine-two");
    }

    @Test
    void aFileWhoseRepositoryGitCannotNameIsRefusedForNowNotTakenAsThisMachinesAlone() throws IOException {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        Path config = one.workingTree().resolve(".git").resolve("config");
        byte[] good = java.nio.file.Files.readAllBytes(config);
        java.nio.file.Files.writeString(config, "[broken\n", java.nio.file.StandardOpenOption.APPEND); // git exits 128

        TeamMember.Reply unnamed = one.acquire("alice-session", alice, "src/App.java");

        assertThat(unnamed.status()).isEqualTo(200);
        assertThat(unnamed.acquired()).as(unnamed.body().toString()).isFalse();
        assertThat(unnamed.holder().path("note").asText()).contains("could not name").contains("try again");

        java.nio.file.Files.write(config, good);
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).as("asked git again").isTrue();
        TeamMember.Reply denied = two.acquire("bob-session", bob, "src/App.java");
        assertThat(denied.acquired()).as("shared, not this machine's alone").isFalse();
        assertThat(denied.holder().path("machine").asText()).isEqualTo("machine-one");
    }

    @Test
    void aMachineJoinsWhileAnotherMachinesStatementIsOpenOnTheTeamsTablesAndTheOthersStayIn() throws Exception {
        Path third = TeamMember.cloneOf(TestRepo.create(dir.resolve("origin3"), "src/App.java"),
                "https://github.com/acme/shop", dir, "three");
        try (java.sql.Connection busy = TeamPostgres.connect(url);
             java.sql.Statement statement = busy.createStatement()) {
            busy.setAutoCommit(false);
            // What a machine in the team holds while it writes: its lease row and a session row, not yet committed.
            statement.execute("UPDATE baton_team_machines SET renewed_at = now() WHERE machine = 'machine-one'");
            statement.execute("UPDATE baton_team_sessions SET seen_at = now()");

            TeamMember three = TeamMember.join(dir, url, "machine-three", third, Map.of());
            try {
                assertThat(three.connected()).as("joined without altering the tables in use").isTrue();
            } finally {
                busy.rollback();
                three.close();
            }
        }
        assertThat(one.connected()).isTrue();
        assertThat(two.connected()).isTrue();
    }

    @Test
    void aMachineWhoseClockIsTenMinutesFastTellsHowLongAFileWasHeldByTheDatabasesClock() throws IOException {
        java.time.Clock fast = java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofMinutes(10));
        Path third = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "three");
        TeamMember ahead = TeamMember.join(dir, url, "machine-fast", third, Map.of(), fast);
        try {
            String alice = one.register("alice-session");
            String carol = ahead.register("carol-session");
            assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();

            TeamMember.Reply denied = ahead.acquire("carol-session", carol, "src/App.java");

            assertThat(denied.acquired()).isFalse();
            java.time.Instant since = java.time.Instant.parse(denied.holder().path("since").asText());
            assertThat(Duration.between(since, java.time.Instant.now(fast)).abs())
                    .as("held for seconds, not ten minutes").isLessThan(Duration.ofMinutes(1));
        } finally {
            ahead.close();
        }
    }

    @Test
    void sessionsOfOneMachineStillShareItsLocksAsOnOneMachineAlone() {
        String alice = one.register("alice-session");
        String carol = one.register("carol-session");
        one.acquire("alice-session", alice, "src/App.java");

        JsonNode denied = one.acquire("carol-session", carol, "src/App.java").body();

        assertThat(denied.path("all_acquired").asBoolean()).isFalse();
        assertThat(denied.path("results").get(0).path("holder").path("session").asText()).isEqualTo("alice-session");
        assertThat(denied.path("results").get(0).path("holder").path("machine").isNull()
                || denied.path("results").get(0).path("holder").path("machine").isMissingNode()).isTrue();
    }

    @Test
    void twoWorktreesOfOneMachineOnTwoBranchesShareOneLockAsTheTeamsDatabaseHoldsOneClaimAFile() throws IOException {
        Path worktree = dir.resolve("one-feature");
        dev.baton.git.TestRepo.at(one.workingTree()).git("worktree", "add", "-q", "-b", "feature", worktree.toString());
        String alice = one.register("alice-session");
        String carol = one.register("carol-session");
        one.acquire("alice-session", alice, "src/App.java");

        JsonNode denied = one.post("/v1/locks/acquire", Map.of("session_id", "carol-session", "files",
                java.util.List.of(worktree.toRealPath().resolve("src/App.java").toString())), carol).body();

        assertThat(denied.path("all_acquired").asBoolean()).isFalse();
        assertThat(denied.path("results").get(0).path("copy_of").path("file").asText()).isEqualTo(one.file("src/App.java"));
        assertThat(denied.path("results").get(0).path("holder").path("session").asText()).isEqualTo("alice-session");
    }

    @Test
    void inATeamKeyedByBranchAnEditOnAnotherBranchOfAnotherMachineGoesAheadAndIsToldTheMachine() throws IOException {
        Path third = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "three");
        Path fourth = TeamMember.cloneOf(origin, "https://github.com/acme/shop", dir, "four");
        TestRepo.at(fourth).git("switch", "-q", "-c", "feature");
        Map<String, String> byBranch = Map.of("BATON_TEAM_SCOPE", "branch");
        TeamMember three = TeamMember.join(dir, url, "machine-three", third, byBranch);
        TeamMember four = TeamMember.join(dir, url, "machine-four", fourth, byBranch);
        try {
            String alice = three.register("alice-session");
            String bob = four.register("bob-session");
            assertThat(three.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();

            TeamMember.Reply onFeature = four.acquire("bob-session", bob, "src/App.java");

            assertThat(onFeature.acquired()).isTrue();
            assertThat(four.sidecar().baton().notices().takeNotices("bob-session")).singleElement().asString()
                    .contains("src/App.java is also being changed on machine machine-three by session alice-session on"
                            + " branch main").contains("`baton msg send alice-session");
            assertThat(three.sidecar().baton().notices().takeNotices("alice-session")).isEmpty();
        } finally {
            TeamMember.closeAll(three, four);
        }
    }

    @Test
    void aFileOutsideAnySharedRepositoryIsThisMachinesAlone() throws IOException {
        TestRepo privateRepo = TestRepo.create(dir.resolve("scratch"), "notes.txt"); // no origin, no identity file
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        String file = privateRepo.path("notes.txt").toString();

        assertThat(one.post("/v1/locks/acquire", Map.of("session_id", "alice-session", "files", java.util.List.of(file)),
                alice).body().path("all_acquired").asBoolean()).isTrue();
        assertThat(two.post("/v1/locks/acquire", Map.of("session_id", "bob-session", "files", java.util.List.of(file)),
                bob).body().path("all_acquired").asBoolean()).isTrue();
    }

    @Test
    void teamStatusShowsBothMachinesTheirLocksAndTheConnection() {
        String alice = one.register("alice-session");
        JsonNode took = one.acquire("alice-session", alice, "src/App.java", "src/Util.java").body();
        assertThat(took.path("all_acquired").asBoolean()).as(took.toString()).isTrue();

        JsonNode team = two.get("/v1/team").body().path("team");

        assertThat(team.path("connected").asBoolean()).as(team.toString()).isTrue();
        assertThat(team.path("machine").asText()).isEqualTo("machine-two");
        assertThat(team.path("url").asText()).doesNotContain("password").contains("127.0.0.1");
        assertThat(team.path("machines").findValuesAsText("machine")).containsExactly("machine-one", "machine-two");
        assertThat(team.path("machines").get(0).path("locks").asInt()).isEqualTo(2);
        assertThat(team.path("machines").get(0).path("lease_valid").asBoolean()).isTrue();
        assertThat(team.path("locks").findValuesAsText("path")).containsExactly("src/App.java", "src/Util.java");
        assertThat(team.path("locks").get(0).path("machine").asText()).isEqualTo("machine-one");
        assertThat(team.path("locks").get(0).path("repository").asText()).isEqualTo("origin:github.com/acme/shop");
    }

    @Test
    void batonTeamStatusListsTheMachinesAndTheSessionsThatHoldFiles() {
        String alice = one.register("alice-session");
        one.acquire("alice-session", alice, "src/App.java");

        BatonCli.Result status = new BatonCli(dir.resolve("machine-two-home"), dir).run("team", "status");

        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).contains("connected").contains("this machine: machine-two")
                .contains("machine-one").contains("alice-session").contains("1 lock(s)");
        assertThat(new BatonCli(dir.resolve("machine-two-home"), dir).run("status").out())
                .contains("team: postgresql://postgres@127.0.0.1").contains("as machine machine-two, connected");
        assertThat(status.out().indexOf("alice-session")).isGreaterThan(status.out().indexOf("machine-one"))
                .isLessThan(status.out().indexOf("machine-two ") < 0 ? Integer.MAX_VALUE : status.out().lastIndexOf("machine-two"));
    }

    @Test
    void aReentrantEditSendsNoStatementToTheDatabaseAndANewLockSendsOneClaim() {
        String alice = one.register("alice-session");
        one.acquire("alice-session", alice, "src/App.java");
        long before = claimsSentBy(one);

        for (int edit = 0; edit < 5; edit++) {
            assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        }
        long afterReentrant = claimsSentBy(one);
        one.acquire("alice-session", alice, "src/Util.java");

        assertThat(afterReentrant).isEqualTo(before);
        assertThat(claimsSentBy(one)).isEqualTo(before + 1);
    }

    private static long claimsSentBy(TeamMember machine) {
        return machine.get("/v1/team").body().path("team").path("statements").path("claims").asLong();
    }

    @Test
    void twoUnrelatedHistoriesBehindOneIdentityFileAreNotOneRepository() throws IOException {
        TestRepo ours = TestRepo.create(dir.resolve("ours"), "src/Main.java");
        ours.write(".baton-repository", "shop\n");
        ours.git("add", "-A");
        ours.git("commit", "-q", "-m", "name");
        TestRepo theirs = TestRepo.create(dir.resolve("theirs"), "src/Main.java", "src/Other.java");
        theirs.write(".baton-repository", "# the team's name for it\nshop\n");
        theirs.git("add", "-A");
        theirs.git("commit", "-q", "-m", "name");
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");

        assertThat(one.post("/v1/locks/acquire", Map.of("session_id", "alice-session",
                "files", java.util.List.of(ours.path("src/Main.java").toString())), alice).acquired()).isTrue();
        TeamMember.Reply unrelated = two.post("/v1/locks/acquire", Map.of("session_id", "bob-session",
                "files", java.util.List.of(theirs.path("src/Main.java").toString())), bob);

        assertThat(unrelated.acquired()).isTrue();
        assertThat(two.sidecar().baton().notices().takeNotices("bob-session"))
                .anySatisfy(notice -> assertThat(notice).contains("two repositories behind one name")
                        .contains(".baton-repository"));
    }

    @Test
    void aMessageToASessionOfAnotherMachineReachesItAtItsNextHookCall() {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        one.acquire("alice-session", alice, "src/App.java");

        TeamMember.Reply sent = two.post("/v1/messages", Map.of("session_id", "bob-session", "to", "alice-se",
                "text", "may I have App.java after your turn?"), bob);

        assertThat(sent.status()).as(sent.body().toString()).isLessThan(300);
        java.util.List<String> heard = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            heard.addAll(one.sidecar().baton().notices().takeNotices("alice-session"));
            assertThat(heard).anySatisfy(notice -> assertThat(notice)
                    .contains("Message from claude-code session bob-session on machine machine-two")
                    .contains("may I have App.java after your turn?"));
        });
    }

    @Test
    void aMessageAnEarlierVersionWroteWithItsSendersAgentInThePathStillNamesTheAgent() throws Exception {
        one.register("alice-session");
        await().atMost(Duration.ofSeconds(30)).until(() -> one.get("/v1/team").body().path("team").path("connected").asBoolean());

        TeamPostgres.execute(url, """
                WITH numbered AS (
                  UPDATE baton_team_event_counter SET seq = seq + 1 RETURNING seq, pg_notify('baton_team', seq::text))
                INSERT INTO baton_team_events (seq, at, machine, kind, session, detail, body, path)
                SELECT numbered.seq, now(), 'machine-old', 'message', 'erin-session', 'machine-one/alice-session',
                  'still on the old version', 'gemini-cli' FROM numbered""");

        java.util.List<String> heard = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            heard.addAll(one.sidecar().baton().notices().takeNotices("alice-session"));
            assertThat(heard).anySatisfy(notice -> assertThat(notice)
                    .contains("Message from gemini-cli session erin-session on machine machine-old")
                    .contains("still on the old version"));
        });
    }

    @Test
    void aBroadcastReachesTheSessionsOfEveryMachineAtTheirNextHookCall() {
        one.register("alice-session");
        one.register("carol-session");
        String bob = two.register("bob-session");
        two.register("dave-session");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                one.get("/v1/team").body().path("team").path("connected").asBoolean()
                        && two.get("/v1/team").body().path("team").path("connected").asBoolean());

        TeamMember.Reply sent = two.post("/v1/messages", Map.of("session_id", "bob-session", "to", "*",
                "text", "rebasing main in five minutes"), bob);

        assertThat(sent.status()).as(sent.body().toString()).isLessThan(300);
        for (String session : java.util.List.of("alice-session", "carol-session")) {
            java.util.List<String> heard = new java.util.ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                heard.addAll(one.sidecar().baton().notices().takeNotices(session));
                assertThat(heard).as(session).anySatisfy(notice -> assertThat(notice)
                        .contains("Message from claude-code session bob-session on machine machine-two to everyone")
                        .contains("rebasing main in five minutes"));
            });
        }
        assertThat(two.sidecar().baton().notices().takeNotices("bob-session"))
                .as("the sender's own machine delivers its broadcast as before, not through the team")
                .noneSatisfy(notice -> assertThat(notice).contains("on machine machine-two"));
    }

    @Test
    void aRequestForAFileHeldOnAnotherMachineIsOpenedAndNamesItsHolderAndMachine() {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        one.acquire("alice-session", alice, "src/App.java");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                two.get("/v1/team").body().path("team").path("known_elsewhere").asInt() == 1);

        TeamMember.Reply asked = two.post("/v1/negotiations", Map.of("session_id", "bob-session",
                "file", two.file("src/App.java"), "reason", "the checkout flow"), bob);

        assertThat(asked.status()).as(asked.body().toString()).isEqualTo(201);
        JsonNode negotiation = asked.body().path("negotiation");
        assertThat(negotiation.path("holder").asText()).isEqualTo("alice-session");
        assertThat(negotiation.path("holder_machine").asText()).isEqualTo("machine-one");
        assertThat(negotiation.path("status").asText()).isEqualTo("pending");
        assertThat(negotiation.path("summary").asText()).contains("alice-se").contains("on machine machine-one");
    }

    @Test
    void aMistypedTeamSettingStopsTheStartWithASentenceAndNoTrace() {
        BatonCli cli = new BatonCli(dir.resolve("typo-home"), dir);

        BatonCli.Result wrongScheme = cli.run(Map.of("BATON_TEAM_URL", "mysql://db/baton"), "serve", "--port", "0");
        BatonCli.Result wrongTtl = cli.run(Map.of("BATON_TEAM_URL", url, "BATON_TEAM_TTL", "1"), "serve", "--port", "0");

        assertThat(wrongScheme.exit()).isNotZero();
        assertThat(wrongScheme.err()).contains("BATON_TEAM_URL must be a PostgreSQL URL").doesNotContain("Exception");
        assertThat(wrongTtl.exit()).isNotZero();
        assertThat(wrongTtl.err()).contains("BATON_TEAM_TTL must be at least 2 seconds").doesNotContain("Exception");
    }

    @Test
    void aPlanPublishedAfterTakingAFileIsWhatTheOtherMachineReads() {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        one.acquire("alice-session", alice, "src/App.java");

        TeamMember.Reply published = one.post("/v1/plans", Map.of("session_id", "alice-session",
                "goal", "round every total to cents"), alice);

        assertThat(published.status()).as(published.body().toString()).isLessThan(300);
        await().atMost(Duration.ofSeconds(30)).until(() -> two.acquire("bob-session", bob, "src/App.java").holder()
                .path("plan").asText().contains("round every total to cents"));
    }

    @Test
    void batonDoctorSaysWhetherTheRunningSidecarIsInTheTeamItsEnvironmentNames() throws IOException {
        BatonCli.Result inTeam = new BatonCli(dir.resolve("machine-two-home"), dir)
                .run(Map.of("BATON_TEAM_URL", url, "HOME", dir.toString()), "doctor");
        Path aloneHome = dir.resolve("alone-home");
        java.nio.file.Files.createDirectories(aloneHome);
        java.nio.file.Files.setPosixFilePermissions(aloneHome, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        try (dev.baton.server.Sidecar alone = dev.baton.server.Sidecar.start(
                dev.baton.server.SidecarOptions.defaults(new dev.baton.home.BatonHome(aloneHome), 0))) {
            BatonCli.Result notInTeam = new BatonCli(aloneHome, dir)
                    .run(Map.of("BATON_TEAM_URL", url, "HOME", dir.toString()), "doctor");

            assertThat(inTeam.out()).containsPattern("team.*as machine machine-two, connected; 2 machine\\(s\\)");
            assertThat(notInTeam.out()).contains("the running sidecar started without it")
                    .contains("baton stop");
        }
    }

    @Test
    void withTheBranchScopeALockCoversTheBranchCheckedOutOnly() throws IOException {
        TestRepo origin = TestRepo.create(dir.resolve("branches"), "src/Main.java");
        Path onMain = TeamMember.cloneOf(origin, "https://github.com/acme/branches", dir, "on-main");
        Path onFeature = TeamMember.cloneOf(origin, "https://github.com/acme/branches", dir, "on-feature");
        new ProcessBuilder("git", "-C", onFeature.toString(), "checkout", "-q", "-b", "feature").inheritIO().start()
                .onExit().join();
        Map<String, String> branchScope = Map.of("BATON_TEAM_SCOPE", "branch");
        try (TeamMember main = TeamMember.join(dir, url, "machine-main", onMain, branchScope);
             TeamMember feature = TeamMember.join(dir, url, "machine-feature", onFeature, branchScope)) {
            String alice = main.register("alice-session");
            String bob = feature.register("bob-session");

            assertThat(main.acquire("alice-session", alice, "src/Main.java").acquired()).isTrue();
            assertThat(feature.acquire("bob-session", bob, "src/Main.java").acquired()).as("another branch").isTrue();
            feature.release("bob-session", bob, "src/Main.java");
            new ProcessBuilder("git", "-C", onFeature.toString(), "checkout", "-q", "main").inheritIO().start()
                    .onExit().join();
            assertThat(feature.acquire("bob-session", bob, "src/Main.java").holder().path("machine").asText())
                    .as("re-checked on the branch now checked out").isEqualTo("machine-main");
        }
    }
}
