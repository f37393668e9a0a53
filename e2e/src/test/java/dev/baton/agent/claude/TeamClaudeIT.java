package dev.baton.agent.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Team mode with the real CLI: two machines (each its own HOME, clone and sidecar, started by its own hooks) whose
 * sidecars share one PostgreSQL on 127.0.0.1. A Claude Code session on one machine holds a file; a Claude Code session
 * on the other is denied it, and its model learns who holds it and on which machine; two sessions denied each other's
 * file are a deadlock found through both machines, and the younger one's model is told to give way.
 */
class TeamClaudeIT {

    private static final String ORIGIN = "https://example.com/acme/shop.git";

    @TempDir
    Path root;

    @Test
    void aFileHeldByClaudeCodeOnOneMachineIsDeniedToClaudeCodeOnAnother() throws IOException {
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().start();
             Machine one = new Machine(root.resolve("one"));
             Machine two = new Machine(root.resolve("two"))) {
            joinTeam(database, one, two);
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(one, "Shared.txt"), "content", "one\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(one, holderModel);
                 FakeModel otherModel = new FakeModel(List.of(
                         Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(two, "Shared.txt"), "content", "two\n")),
                         Step.say("Could not write.")));
                 Claude other = new Claude(two, otherModel)) {
                holder.prompt("Write Shared.txt.");
                other.prompt("Write Shared.txt too.");

                assertThat(one.read("Shared.txt")).as(() -> ClaudeCodeIT.story(one, holder)).isEqualTo("one\n");
                assertThat(two.read("Shared.txt")).as(() -> ClaudeCodeIT.story(two, other)).isNull();
                assertThat(otherModel.everythingSent()).as(() -> ClaudeCodeIT.story(two, other))
                        .contains("Shared.txt is held by")
                        .contains(holder.sessionId().substring(0, 8))
                        .contains("on machine laptop-one");
                assertThat(one.locks()).containsExactly("Shared.txt");
                assertThat(two.baton("team", "status")).contains("laptop-one").contains("desktop-two");
            }
        }
    }

    @Test
    void twoClaudeCodeSessionsOnTwoMachinesDeniedEachOthersFileAreADeadlockAndTheYoungestIsToldToGiveWay()
            throws IOException {
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().start();
             Machine one = new Machine(root.resolve("one"));
             Machine two = new Machine(root.resolve("two"))) {
            joinTeam(database, one, two);
            try (FakeModel olderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(one, "Cart.txt"), "content", "one\n")),
                    Step.say("Cart written."),
                    Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(one, "Util.txt"), "content", "one\n")),
                    Step.say("Util is held.")));
                 Claude older = new Claude(one, olderModel)) {
                // The younger session starts once the older one has written: which one is younger is then certain.
                older.prompt("Write Cart.txt.");
                try (FakeModel youngerModel = new FakeModel(List.of(
                        Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(two, "Util.txt"), "content", "two\n")),
                        Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(two, "Cart.txt"), "content", "two\n")),
                        Step.say("Cart is held."),
                        Step.call("Write", Map.of("file_path", ClaudeCodeIT.path(two, "Util.txt"), "content", "two again\n")),
                        Step.say("Noted.")));
                     Claude younger = new Claude(two, youngerModel)) {
                    younger.prompt("Write Util.txt, then Cart.txt.");
                    older.prompt("Now write Util.txt.");

                    String olderSession = older.sessionId();
                    String youngerSession = younger.sessionId();
                    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).untilAsserted(() -> {
                        assertThat(two.baton("deadlocks")).contains("victim: " + youngerSession);
                        assertThat(one.baton("deadlocks")).contains("victim: desktop-two/" + youngerSession)
                                .contains(olderSession + " → desktop-two/" + youngerSession);
                    });

                    younger.prompt("Go on with Util.txt.");

                    assertThat(youngerModel.everythingSent()).as(() -> ClaudeCodeIT.story(two, younger))
                            .contains("Baton found a deadlock").contains("You are the youngest session in it")
                            .contains("release Util.txt").contains("on machine laptop-one");
                    assertThat(olderModel.everythingSent()).as("the older one is not asked to give way")
                            .doesNotContain("You are the youngest session in it");
                    assertThat(one.read("Util.txt")).isNull();
                    assertThat(two.read("Cart.txt")).isNull();
                }
            }
        }
    }

    /** Clones of one origin, each machine in the team under its own name, Claude Code's hooks installed on both. */
    private static void joinTeam(EmbeddedPostgres database, Machine one, Machine two) {
        // One history on both, as clones have: two repositories made a second apart start at different root commits,
        // and the team then keeps them apart as two projects behind one name.
        two.run(two.repo, List.of("git", "fetch", "-q", one.repo.toString(), "main"));
        two.run(two.repo, List.of("git", "reset", "-q", "--hard", "FETCH_HEAD"));
        String url = "postgresql://postgres@127.0.0.1:" + database.getPort() + "/postgres";
        for (Machine machine : List.of(one, two)) {
            machine.run(machine.repo, List.of("git", "remote", "add", "origin", ORIGIN));
            machine.set("BATON_TEAM_URL", url);
            machine.install("--claude");
        }
        one.set("BATON_TEAM_MACHINE", "laptop-one");
        two.set("BATON_TEAM_MACHINE", "desktop-two");
    }
}
