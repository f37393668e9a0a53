package dev.baton.agent.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every working tree of one repository is one lock space: a file is known by the repository and its path in it, in
 * the main worktree and in each linked worktree ({@code git worktree add}). Two Claude Code sessions, one in each of
 * two worktrees on two branches, change the same file: each may, and each is told where the other copy is changed.
 */
class ClaudeWorktreesIT {

    private static final String ALSO_CHANGED = "is also being changed in another copy of this repository";
    private static final String NOW_ALSO_CHANGED = "is now also being changed in another copy of this repository";

    @TempDir
    Path root;

    @Test
    void aFileChangedInTwoWorktreesOfOneRepositoryMayBeChangedInBothAndEachSessionIsToldWhereTheOtherCopyIs()
            throws IOException {
        try (Machine machine = new Machine(root)) {
            machine.write("src/App.java", "class App {}\n");
            machine.commitAll();
            Path worktree = machine.worktree("wt-b", "feature-b");
            machine.install("--claude");
            String mainFile = ClaudeCodeIT.path(machine, "src/App.java");
            String worktreeFile = worktree.resolve("src/App.java").toString();
            Step.Pause holding = new Step.Pause();
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Read", Map.of("file_path", mainFile)),
                    Step.call("Write", Map.of("file_path", mainFile, "content", "class App { int a = 1; }\n")),
                    holding,
                    Step.call("Edit", Map.of("file_path", mainFile, "old_string", "a = 1", "new_string", "a = 2")),
                    Step.say("Changed.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel otherModel = new FakeModel(List.of(
                         Step.call("Read", Map.of("file_path", worktreeFile)),
                         Step.call("Write", Map.of("file_path", worktreeFile, "content", "class App { int b = 1; }\n")),
                         Step.say("Changed in feature-b.")));
                 Claude other = new Claude(machine, worktree, otherModel)) {
                holder.promptWithoutWaiting("Change src/App.java.");
                holding.awaitReached();
                assertThat(machine.holderOf("src/App.java")).as(() -> ClaudeCodeIT.story(machine, holder))
                        .isEqualTo(holder.sessionId());

                other.prompt("Change src/App.java in this worktree.");

                assertThat(machine.read(worktree, "src/App.java")).as(() -> ClaudeCodeIT.story(machine, holder, other))
                        .isEqualTo("class App { int b = 1; }\n");
                assertThat(machine.read("src/App.java")).isEqualTo("class App { int a = 1; }\n");
                assertThat(otherModel.everythingSent()).doesNotContain("is held by");
                List<String> toldOther = otherModel.lastTurnTextsContaining(ALSO_CHANGED);
                assertThat(toldOther).as(machine.explain(otherModel)).isNotEmpty();
                assertThat(toldOther.get(0)).contains("src/App.java").contains(machine.repo.toRealPath().toString())
                        .containsPattern("\\bmain\\b");

                holding.resume();
                holder.awaitTurnEnd();

                assertThat(machine.read("src/App.java")).as(() -> ClaudeCodeIT.story(machine, holder, other))
                        .isEqualTo("class App { int a = 2; }\n");
                List<String> toldHolder = holderModel.lastTurnTextsContaining(NOW_ALSO_CHANGED);
                assertThat(toldHolder).as(machine.explain(holderModel)).hasSize(1);
                assertThat(toldHolder.get(0)).contains("src/App.java").contains(worktree.toRealPath().toString())
                        .contains("feature-b");
            }
        }
    }
}
