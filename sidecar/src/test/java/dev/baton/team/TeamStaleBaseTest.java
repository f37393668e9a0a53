package dev.baton.team;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss no per-machine lock can stop: machine one commits a file, machine two edits its own older copy. Two clones
 * of one shared (bare) remote, with real pushes and pulls.
 */
class TeamStaleBaseTest {

    @TempDir
    Path dir;

    private String url;
    private TestRepo first;
    private TestRepo second;
    private TeamMember one;
    private TeamMember two;

    @BeforeEach
    void twoClonesOfOneRemote() throws IOException {
        url = TeamPostgres.newDatabase();
        TestRepo seed = TestRepo.create(dir.resolve("seed"), "src/App.java");
        Path remote = dir.resolve("shop.git");
        seed.git("clone", "-q", "--bare", seed.root().toString(), remote.toString());
        first = cloneOf(remote, "one");
        second = cloneOf(remote, "two");
        one = TeamMember.join(dir, url, "machine-one", first.root(), Map.of());
        two = TeamMember.join(dir, url, "machine-two", second.root(), Map.of());
    }

    @AfterEach
    void leave() {
        TeamMember.closeAll(one, two);
    }

    @Test
    void aFileCommittedOnOneMachineIsRefusedOnAnotherUntilItsCloneHasThatCommit() throws IOException {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        String commit = aliceCommits(alice, true);
        one.release("alice-session", alice, "src/App.java");

        TeamMember.Reply stale = await().atMost(Duration.ofSeconds(30)).until(
                () -> two.acquire("bob-session", bob, "src/App.java"), reply -> reply.holder().path("note").isTextual());

        assertThat(stale.acquired()).isFalse();
        assertThat(stale.holder().path("alive").asText()).isEqualTo("released");
        assertThat(stale.holder().path("note").asText()).startsWith("pull first")
                .contains(commit.substring(0, 12)).contains("machine-one")
                .contains("on branch main").contains("git pull");
        second.git("pull", "-q", "origin", "main");
        assertThat(two.acquire("bob-session", bob, "src/App.java").acquired()).isTrue();
    }

    @Test
    void theRefusalHoldsForEverySessionOfTheStaleCloneNotOnlyTheFirst() throws IOException {
        String alice = one.register("alice-session");
        aliceCommits(alice, true);
        one.release("alice-session", alice, "src/App.java");
        String bob = two.register("bob-session");
        await().atMost(Duration.ofSeconds(30)).until(() -> two.acquire("bob-session", bob, "src/App.java"),
                reply -> reply.holder().path("note").asText().startsWith("pull first"));
        two.delete("/v1/sessions/bob-session", bob); // bob gives up and its session ends

        String carol = two.register("carol-session");
        TeamMember.Reply stale = two.acquire("carol-session", carol, "src/App.java");
        TeamMember.Reply again = two.acquire("carol-session", carol, "src/App.java");

        assertThat(stale.acquired()).as("the record of machine-one's commit outlived bob's refused claim").isFalse();
        assertThat(stale.holder().path("note").asText()).startsWith("pull first").contains("machine-one");
        assertThat(again.acquired()).as("and carol's own refused claim").isFalse();
        second.git("pull", "-q", "origin", "main");
        assertThat(two.acquire("carol-session", carol, "src/App.java").acquired()).isTrue();
    }

    @Test
    void aCommitTheOtherMachineNeverPushedIsAdvisedAsSuchNotAsAPullThatCannotBringIt() throws IOException {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        String commit = aliceCommits(alice, false);
        assertThat(one.delete("/v1/sessions/alice-session", alice).status()).isEqualTo(200); // its session ends

        TeamMember.Reply refused = await().atMost(Duration.ofSeconds(30)).until(
                () -> two.acquire("bob-session", bob, "src/App.java"), reply -> reply.holder().path("note").isTextual());

        assertThat(refused.acquired()).isFalse();
        assertThat(refused.holder().path("note").asText()).startsWith("pull first")
                .contains(commit.substring(0, 12)).contains("machine machine-one had not pushed it")
                .contains("baton msg send alice-session").doesNotContain("`git fetch` and merge");
        first.git("push", "-q", "origin", "main");
        second.git("pull", "-q", "origin", "main");
        assertThat(two.acquire("bob-session", bob, "src/App.java").acquired()).isTrue();
    }

    @Test
    void uncommittedWorkLeftOnAnotherMachineIsToldToTheNextSessionThatTakesTheFile() throws IOException {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        first.write("src/App.java", "class App { int unsaved; }\n"); // changed, never committed
        assertThat(one.delete("/v1/sessions/alice-session", alice).status()).isEqualTo(200); // its session ends

        await().atMost(Duration.ofSeconds(30)).until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());

        assertThat(two.sidecar().baton().notices().takeNotices("bob-session")).anySatisfy(notice -> assertThat(notice)
                .contains("src/App.java was let go on machine machine-one by session alice-session")
                .contains("uncommitted changes").contains("baton msg send alice-session"));
    }

    @Test
    void aFileWhoseHolderDidNotChangeItMovesWithoutAPull() throws IOException {
        String alice = one.register("alice-session");
        String bob = two.register("bob-session");
        one.acquire("alice-session", alice, "src/App.java");
        one.release("alice-session", alice, "src/App.java");

        await().atMost(Duration.ofSeconds(30)).until(() -> two.acquire("bob-session", bob, "src/App.java").acquired());
    }

    /** Alice on machine one takes App.java, changes and commits it, and pushes it or not; returns the commit. */
    private String aliceCommits(String alice, boolean push) throws IOException {
        assertThat(one.acquire("alice-session", alice, "src/App.java").acquired()).isTrue();
        first.write("src/App.java", "class App { int total; }\n");
        first.git("commit", "-q", "-am", "total");
        if (push) {
            first.git("push", "-q", "origin", "main");
        }
        return first.git("rev-parse", "HEAD").strip();
    }

    private TestRepo cloneOf(Path remote, String name) throws IOException {
        Path clone = dir.resolve(name);
        TestRepo seed = TestRepo.create(dir.resolve("seed"));
        seed.git("clone", "-q", remote.toString(), clone.toString());
        TestRepo repo = TestRepo.create(clone);
        repo.git("reset", "-q", "--hard", "origin/main"); // drop the empty commit create() adds
        assertThat(Files.exists(clone.resolve("src/App.java"))).isTrue();
        return repo;
    }
}
