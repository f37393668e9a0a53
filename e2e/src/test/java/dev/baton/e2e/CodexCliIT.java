package dev.baton.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Codex CLI 0.169 after a fresh {@code baton install --codex}, driven by a scripted model. */
class CodexCliIT {

    @TempDir
    Path root;

    @Test
    void theFirstEditAfterInstallIsAllowedAndAnApplyPatchHeredocThroughTheShellLocksItsFile() {
        try (Machine machine = new Machine(root)) {
            Step.Pause pause = new Step.Pause();
            try (FakeModel model = new FakeModel(List.of(
                    Step.freeform("apply_patch", patchAdding(machine, "First.txt", "first")),
                    Step.call("exec_command", Map.of("cmd", "apply_patch <<'EOF'\n"
                            + patchAdding(machine, "Heredoc.txt", "through the shell") + "EOF\n")),
                    pause,
                    Step.say("Both added.")))) {
                Codex.configure(machine, model);
                machine.install("--codex");
                try (Codex codex = new Codex(machine, "Add the two files.")) {
                    pause.awaitReached();
                    assertThat(machine.read("First.txt")).as(machine.explain(model)).isEqualTo("first\n");
                    assertThat(machine.read("Heredoc.txt")).isEqualTo("through the shell\n");
                    // The heredoc's edit stays in flight until the turn ends: Codex sends no PostToolUse for its shell.
                    assertThat(machine.lockedFiles()).contains("First.txt", "Heredoc.txt");
                    pause.resume();
                    assertThat(codex.awaitExit()).as(codex.process.output()).isZero();
                }
            }
        }
    }

    @Test
    void aFileAnotherLiveSessionHoldsIsDeniedToApplyPatchAndToTheHeredocWithTheReason() {
        try (Machine machine = new Machine(root)) {
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", machine.repo.resolve("Held.txt").toString(),
                            "content", "claude's\n")),
                    Step.say("Written.")));
                 FakeModel model = new FakeModel(List.of(
                         Step.freeform("apply_patch", patchUpdating(machine, "Held.txt", "claude's", "codex's")),
                         Step.call("exec_command", Map.of("cmd", "apply_patch <<'EOF'\n"
                                 + patchUpdating(machine, "Held.txt", "claude's", "codex's shell") + "EOF\n")),
                         Step.say("It is held.")))) {
                Codex.configure(machine, model);
                machine.install("--claude", "--codex");
                try (Claude holder = new Claude(machine, holderModel)) {
                    holder.prompt("Write Held.txt.");
                    try (Codex codex = new Codex(machine, "Change Held.txt.")) {
                        codex.awaitExit();
                    }
                    assertThat(machine.read("Held.txt")).as(machine.explain(model)).isEqualTo("claude's\n");
                    String sent = model.everythingSent();
                    String holderPrefix = ClaudeCodeIT.sessionId(holder).substring(0, 8);
                    assertThat(sent.split("Held.txt is held by", -1)).as(sent).hasSizeGreaterThanOrEqualTo(3);
                    assertThat(sent).contains(holderPrefix).contains("baton negotiate");
                }
            }
        }
    }

    static String patchAdding(Machine machine, String file, String line) {
        return "*** Begin Patch\n*** Add File: " + machine.repo.resolve(file) + "\n+" + line + "\n*** End Patch\n";
    }

    static String patchUpdating(Machine machine, String file, String from, String to) {
        return "*** Begin Patch\n*** Update File: " + machine.repo.resolve(file) + "\n@@\n-" + from + "\n+" + to
                + "\n*** End Patch\n";
    }
}
