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
 * on the other is denied it, and its model learns who holds it and on which machine.
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
            String url = "postgresql://postgres@127.0.0.1:" + database.getPort() + "/postgres";
            for (Machine machine : List.of(one, two)) {
                machine.run(machine.repo, List.of("git", "remote", "add", "origin", ORIGIN));
                machine.set("BATON_TEAM_URL", url);
                machine.install("--claude");
            }
            one.set("BATON_TEAM_MACHINE", "laptop-one");
            two.set("BATON_TEAM_MACHINE", "desktop-two");
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
}
