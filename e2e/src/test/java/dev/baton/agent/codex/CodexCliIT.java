package dev.baton.agent.codex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.claude.Claude;
import dev.baton.e2e.CommandMarkers;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Codex CLI 0.169 after a fresh {@code baton install --codex}, driven by a scripted model. */
class CodexCliIT {

    @TempDir
    Path root;

    /**
     * Codex starts its MCP servers with a few variables only (the installed entry passes on BATON_HOME and the
     * sidecar's settings) and offers their tools to the model behind a search, deferred; the namespace it announces
     * carries Baton's instructions, which only Baton's initialize answer holds: the server answered in the first
     * session, though no sidecar ran when Codex started it. Codex does not wait for its MCP servers before the first
     * request unless one is {@code required}; the test marks Baton's so, to know when to look.
     */
    @Test
    void theFirstSessionAfterInstallHasBatonsToolsThoughNoSidecarRanWhenItStarted() throws java.io.IOException {
        try (Machine machine = new Machine(root)) {
            try (FakeModel model = new FakeModel(List.of(Step.say("Nothing to do.")))) {
                Codex.configure(machine, model);
                machine.install("--codex");
                java.nio.file.Path config = machine.home.resolve(".codex/config.toml");
                String installed = java.nio.file.Files.readString(config);
                assertThat(installed).contains("[mcp_servers.baton]\n");
                java.nio.file.Files.writeString(config, installed.replace("[mcp_servers.baton]\n",
                        "[mcp_servers.baton]\nrequired = true\n"));
                try (Codex codex = new Codex(machine, "Is Free.txt locked?")) {
                    assertThat(codex.awaitExit()).as(codex.process.output()).isZero();

                    assertThat(model.everythingSent()).as(machine.explain(model))
                            .contains("mcp__baton: Baton coordinates the agents editing this repository");
                    assertThat(java.nio.file.Files.readString(machine.stateDir().resolve("endpoint")).strip())
                            .as("the sidecar, started by the hook or the MCP server, took BATON_PORT")
                            .isEqualTo("127.0.0.1:" + machine.batonPort);
                }
            }
        }
    }

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
                    String holderPrefix = holder.sessionId().substring(0, 8);
                    assertThat(sent.split("Held.txt is held by", -1)).as(sent).hasSizeGreaterThanOrEqualTo(3);
                    assertThat(sent).contains(holderPrefix).contains("baton negotiate").contains("try again later")
                            .as("the denial's last sentence ends once, as Codex renders it").doesNotContain("later..");
                }
            }
        }
    }

    /**
     * Codex CLI runs its commands with bash, which reads the BASH_ENV `baton install` set for them and hands each
     * command to Baton's wrapper: a write no check before the command can read fails on the file Claude Code holds.
     */
    @Test
    void codexsCommandsRunThroughTheWrapperAndCannotChangeAFileAnotherSessionHolds() {
        try (Machine machine = new Machine(root)) {
            machine.write("Held.txt", "original\n");
            machine.commitAll();
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", machine.repo.resolve("Held.txt").toString(),
                            "content", "claude's\n")),
                    Step.say("Written.")));
                 FakeModel model = new FakeModel(List.of(
                         Step.call("exec_command", Map.of("cmd", "python3 -c \"open('Held.txt','w').write('codex')\"")),
                         Step.say("Tried.")))) {
                Codex.configure(machine, model);
                machine.install("--claude", "--codex");
                try (Claude holder = new Claude(machine, holderModel)) {
                    holder.prompt("Write Held.txt.");
                    try (Codex codex = new Codex(machine, "Rewrite Held.txt.")) {
                        codex.awaitExit();
                    }
                    assertThat(machine.read("Held.txt")).as(machine.explain(model)).isEqualTo("claude's\n");
                    assertThat(model.everythingSent()).as(machine.explain(model))
                            .contains("Read-only file system").contains("Held.txt (held by claude-code session");
                }
            }
        }
    }

    /**
     * The binder beside a Codex command follows the lock table while the command runs: a command that began before
     * Claude Code took the file finds it read-only afterwards. Codex hands the model a command that outlives its
     * wait as still running; the script pauses after the call until the command has tried its write.
     */
    @Test
    void aLongRunningCommandStartedBeforeClaudeCodeTookTheFileCannotWriteItAfterwards() {
        try (Machine machine = new Machine(root)) {
            machine.write("Held.txt", "original\n");
            machine.commitAll();
            CommandMarkers markers = new CommandMarkers(root);
            Step.Pause pause = new Step.Pause();
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", machine.repo.resolve("Held.txt").toString(),
                            "content", "claude's\n")),
                    Step.say("Written.")));
                 FakeModel model = new FakeModel(List.of(
                         Step.call("exec_command", Map.of("cmd", markers.writeAfterGo("Held.txt"))),
                         pause,
                         Step.say("Tried.")))) {
                Codex.configure(machine, model);
                machine.install("--claude", "--codex");
                try (Claude holder = new Claude(machine, holderModel);
                     Codex codex = new Codex(machine, "Wait for the go, then rewrite Held.txt.")) {
                    markers.awaitStarted();

                    holder.prompt("Write Held.txt.");
                    assertThat(machine.holderOf("Held.txt")).as(machine.explain(holderModel)).isEqualTo(holder.sessionId());
                    markers.go();
                    markers.awaitTried();
                    pause.resume();
                    codex.awaitExit();

                    assertThat(markers.output()).as(machine.explain(model)).contains("Held.txt writable at start")
                            .contains("Read-only file system").contains("the write was refused")
                            .doesNotContain("the write went through");
                    assertThat(machine.read("Held.txt")).isEqualTo("claude's\n");
                    assertThat(machine.holderOf("Held.txt")).isEqualTo(holder.sessionId());
                }
            } finally {
                markers.giveUp();
                pause.resume();
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
