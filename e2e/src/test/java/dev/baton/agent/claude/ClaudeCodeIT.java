package dev.baton.agent.claude;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.e2e.CommandMarkers;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Claude Code 2.1 after a fresh {@code baton install --claude}, driven by a scripted model. */
class ClaudeCodeIT {

    private static final Duration SETTLE = Duration.ofMinutes(1);

    @TempDir
    Path root;

    @Test
    void theFirstEditAfterInstallIsAllowedAndStopKeepsTheDirtyFileWhileFreeingTheCleanOne() {
        try (Machine machine = new Machine(root)) {
            machine.write("src/Clean.txt", "unchanged\n");
            machine.commitAll();
            machine.install("--claude");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "src/New.txt"), "content", "new\n")),
                    Step.call("Write", Map.of("file_path", path(machine, "src/Clean.txt"), "content", "unchanged\n")),
                    Step.say("Both written.")));
                 Claude claude = new Claude(machine, model)) {
                claude.prompt("Write the two files.");

                assertThat(machine.read("src/New.txt")).as(machine.explain(model)).isEqualTo("new\n");
                await("Stop to free the clean file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).containsExactly("src/New.txt"));

                claude.end();
                await("SessionEnd to free every file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
            }
        }
    }

    /**
     * No sidecar runs when the first session starts: its SessionStart hook starts one while Claude Code connects to
     * Baton's MCP server, and a connection refused then would leave the session without Baton's tools.
     */
    @Test
    void theFirstSessionAfterInstallHasBatonsToolsThoughNoSidecarRanWhenItStarted() {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("mcp__baton__lock_status", Map.of("files", List.of(path(machine, "Free.txt")))),
                    Step.say("Checked.")));
                 Claude claude = new Claude(machine, model)) {
                claude.prompt("Is Free.txt locked?");

                assertThat(lastToolResult(model)).as(() -> story(machine, claude)).contains("Free.txt")
                        .doesNotContain("No such tool").doesNotContain("permission");
            }
        }
    }

    @Test
    void aSecondLiveSessionIsDeniedTheHeldFileAndItsModelLearnsWhoHoldsItAndWhatToDo() {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Shared.txt"), "content", "first\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel otherModel = new FakeModel(List.of(
                         Step.call("Write", Map.of("file_path", path(machine, "Shared.txt"), "content", "second\n")),
                         Step.call("mcp__baton__lock_status", Map.of("files", List.of(path(machine, "Shared.txt")))),
                         Step.say("Could not write.")));
                 Claude other = new Claude(machine, otherModel)) {
                holder.prompt("Write Shared.txt.");
                other.prompt("Write Shared.txt too.");

                assertThat(machine.read("Shared.txt")).as(() -> story(machine, holder, other)).isEqualTo("first\n");
                String holderSession = holder.sessionId();
                assertThat(otherModel.everythingSent())
                        .contains("Shared.txt is held by")
                        .contains(holderSession.substring(0, 8))
                        .contains("baton negotiate").contains("try again later").doesNotContain("later..");
                assertThat(machine.locks()).containsExactly("Shared.txt");
                String status = lastToolResult(otherModel);
                assertThat(status).as("lock_status through MCP").contains(holderSession.substring(0, 8))
                        .doesNotContain("No such tool").doesNotContain("permission");
            }
        }
    }

    @Test
    void anEditThePermissionsRefuseLeavesNoLockBehindOnceTheTurnEnds() {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Refused.txt"), "content", "never\n")),
                    Step.say("I was not allowed to.")));
                 Claude claude = new Claude(machine, model, Map.of(), "default")) {
                // In print mode without a rule allowing Write, Claude Code refuses the edit after Baton granted it.
                // With Claude Code 2.1.330 no hook frees the file at this refusal (PermissionDenied is for auto
                // mode's refusals), so the lock stays in flight until the turn's Stop; the session lives on.
                claude.prompt("Write Refused.txt.");

                assertThat(machine.read("Refused.txt")).as(machine.explain(model)).isNull();
                assertThat(model.everythingSent()).doesNotContain("Baton could not check");
                await("Stop to free the refused edit's file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
            }
        }
    }

    /**
     * The install writes {@code onFailure: "block"} on the edit and shell tools' hook: a hook that cannot even start
     * (its script gone, as after a half-done uninstall) then blocks the edit instead of letting it through unchecked.
     */
    @Test
    void anEditWhoseHookCannotStartIsBlockedNotLetThrough() throws Exception {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude");
            java.nio.file.Files.delete(machine.home.resolve(".local/share/baton/hooks/baton-hook"));
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Unchecked.txt"), "content", "unchecked\n")),
                    Step.say("Done.")));
                 Claude claude = new Claude(machine, model)) {
                claude.prompt("Write Unchecked.txt.");

                assertThat(machine.read("Unchecked.txt")).as(machine.explain(model)).isNull();
                assertThat(model.everythingSent()).as(machine.explain(model)).containsIgnoringCase("hook");
            }
        }
    }

    @Test
    void aSessionWithTheOptOutSetEditsAHeldFileUnchecked() {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Mine.txt"), "content", "held\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel optedOutModel = new FakeModel(List.of(
                         Step.call("Write", Map.of("file_path", path(machine, "Mine.txt"), "content", "unchecked\n")),
                         Step.say("Written.")));
                 Claude optedOut = new Claude(machine, optedOutModel, Map.of("CLAUDE_FILE_LOCK", "0"))) {
                holder.prompt("Write Mine.txt.");
                assertThat(machine.read("Mine.txt")).as(() -> story(machine, holder)).isEqualTo("held\n");
                assertThat(machine.locks()).containsExactly("Mine.txt");
                optedOut.prompt("Write Mine.txt.");

                assertThat(machine.read("Mine.txt")).isEqualTo("unchecked\n");
                assertThat(optedOutModel.everythingSent()).doesNotContain("is held by");
            }
        }
    }

    @Test
    void aFinishedSubagentHandsItsFileBackToItsParent() {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude");
            String file = path(machine, "B.txt");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("Agent", Map.of("description", "Write B", "prompt", "Write B.txt",
                            "subagent_type", "general-purpose", "run_in_background", false)),
                    Step.call("Write", Map.of("file_path", file, "content", "from the subagent\n")),
                    Step.say("Subagent done."),
                    Step.call("Read", Map.of("file_path", file)),
                    Step.call("Edit", Map.of("file_path", file, "old_string", "from the subagent",
                            "new_string", "from the parent")),
                    Step.say("Parent done.")));
                 Claude claude = new Claude(machine, model)) {
                claude.prompt("Have a subagent write B.txt, then change it yourself.");

                assertThat(model.everythingSent()).doesNotContain("is held by");
                assertThat(machine.read("B.txt")).isEqualTo("from the parent\n");
            }
        }
    }

    @Test
    void aShellCommandOfASecondSessionCannotChangeOrDiscardAHeldFile() {
        try (Machine machine = new Machine(root)) {
            machine.write("src/A.txt", "original\n");
            machine.commitAll();
            machine.install("--claude");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "src/A.txt"), "content", "held work\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel otherModel = new FakeModel(List.of(
                         Step.call("Bash", Map.of("command", "sed -i 's/held/overwritten/' src/A.txt",
                                 "description", "Edit A.txt in place")),
                         Step.call("Bash", Map.of("command", "git checkout .", "description", "Discard changes")),
                         Step.say("Could not change it.")));
                 Claude other = new Claude(machine, otherModel)) {
                holder.prompt("Write src/A.txt.");
                await("the holder's Stop to keep its dirty file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).containsExactly("src/A.txt"));

                other.prompt("Change src/A.txt through the shell, then discard every change.");

                assertThat(machine.read("src/A.txt")).as(machine.explain(otherModel)).isEqualTo("held work\n");
                String sent = otherModel.everythingSent();
                assertThat(sent).contains("Baton blocked this command").contains("sed -i")
                        .contains("git checkout .").contains("would throw away uncommitted changes")
                        .contains(holder.sessionId().substring(0, 8));
                assertThat(machine.locks()).containsExactly("src/A.txt");
            }
        }
    }

    /**
     * What no check before a command can see, the kernel stops: the repository's own pre-commit formatter (installed
     * by the user before the agents came) rewrites every text file when the second session commits its own file,
     * and a background job of that session writes the held file after its tool call returned. Claude Code runs both
     * through Baton's CLAUDE_CODE_SHELL_PREFIX, which makes the held file read-only for them.
     */
    @Test
    void aPreCommitFormatterAndABackgroundJobOfASecondSessionCannotChangeTheHeldFile() throws Exception {
        try (Machine machine = new Machine(root)) {
            machine.write("src/A.txt", "original\n");
            machine.commitAll();
            java.nio.file.Path hook = machine.repo.resolve(".git/hooks/pre-commit");
            java.nio.file.Files.writeString(hook, "#!/bin/sh\n# the project's formatter: every text file, staged or not\n"
                    + "for f in $(git ls-files '*.txt'); do sed -i 's/[[:space:]]*$//' \"$f\" || exit 1; echo '# formatted' >> \"$f\" || exit 1; done\n");
            hook.toFile().setExecutable(true);
            machine.install("--claude");
            java.nio.file.Path done = root.resolve("background-done");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "src/A.txt"), "content", "held work\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel otherModel = new FakeModel(List.of(
                         Step.call("Bash", Map.of("command", "echo mine > Own.txt && git add Own.txt && git commit -q -m own -- Own.txt",
                                 "description", "Commit my own file")),
                         Step.call("Bash", Map.of("command", "sleep 1; python3 -c \"open('src/A.txt','w').write('overwritten')\"; touch "
                                 + done, "description", "Rewrite in the background", "run_in_background", true)),
                         Step.say("Done.")));
                 Claude other = new Claude(machine, otherModel)) {
                holder.prompt("Write src/A.txt.");
                await("the holder's Stop to keep its dirty file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).containsExactly("src/A.txt"));

                other.prompt("Commit Own.txt, then rewrite src/A.txt in the background.");
                await("the background job to end").atMost(SETTLE).until(() -> java.nio.file.Files.exists(done));

                assertThat(machine.read("src/A.txt")).as(() -> story(machine, holder, other)).isEqualTo("held work\n");
                String sent = otherModel.everythingSent();
                assertThat(sent).as(() -> story(machine, holder, other)).contains("Read-only file system")
                        .contains("Baton: files other sessions hold were read-only while this command ran: src/A.txt")
                        .contains(holder.sessionId().substring(0, 8));
                assertThat(machine.locks()).contains("src/A.txt");
                assertThat(machine.holderOf("src/A.txt")).isEqualTo(holder.sessionId());
            }
        }
    }

    /**
     * A command that began while nothing was held follows the lock table while it runs: the second session's
     * foreground command starts first and waits (bounded) for the test's marker; then the holder's edit takes the
     * file, and the same running command finds it read-only. Its write is python's, which no check before a command
     * reads, so only the kernel stops it.
     */
    @Test
    void aLongRunningCommandStartedBeforeAnotherSessionTookTheFileCannotWriteItAfterwards() {
        try (Machine machine = new Machine(root)) {
            machine.write("src/A.txt", "original\n");
            machine.commitAll();
            machine.install("--claude");
            CommandMarkers markers = new CommandMarkers(root);
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "src/A.txt"), "content", "held work\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel runnerModel = new FakeModel(List.of(
                         Step.call("Bash", Map.of("command", markers.writeAfterGo("src/A.txt"),
                                 "description", "Wait, then rewrite A.txt", "timeout", 300000)),
                         Step.say("Done.")));
                 Claude runner = new Claude(machine, runnerModel)) {
                runner.promptWithoutWaiting("Wait for the go, then rewrite src/A.txt.");
                markers.awaitStarted();

                holder.prompt("Write src/A.txt.");
                assertThat(machine.holderOf("src/A.txt")).as(() -> story(machine, holder)).isEqualTo(holder.sessionId());
                markers.go();
                runner.awaitTurnEnd();

                assertThat(markers.output()).as(() -> story(machine, holder, runner))
                        .contains("src/A.txt writable at start").contains("Read-only file system")
                        .contains("the write was refused").doesNotContain("the write went through");
                assertThat(runnerModel.everythingSent()).as("the tool result").contains("Read-only file system");
                assertThat(machine.read("src/A.txt")).isEqualTo("held work\n");
                assertThat(machine.holderOf("src/A.txt")).isEqualTo(holder.sessionId());
            } finally {
                markers.giveUp();
            }
        }
    }

    /**
     * A session may not plant a pre-commit hook while another holds files in the repository: not with its Write tool
     * (the hook denies it, naming a git hook), not with a redirect Baton reads before the command, and not with a
     * write it cannot read (the hooks directory is read-only in the command). The holder's own commit then runs no
     * planted code.
     */
    @Test
    void aSecondSessionCannotPlantAPreCommitHookThatTheHoldersCommitWouldRun() throws Exception {
        try (Machine machine = new Machine(root)) {
            machine.write("src/A.txt", "original\n");
            machine.commitAll();
            machine.install("--claude");
            Path ran = root.resolve("planted-hook-ran");
            String hookFile = path(machine, ".git/hooks/pre-commit");
            // As the model would type it into printf or a python string: the line breaks escaped.
            String planted = "#!/bin/sh\\ntouch " + ran + "\\necho planted >> src/A.txt\\n";
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "src/A.txt"), "content", "held work\n")),
                    Step.say("Written."),
                    Step.call("Bash", Map.of("command", "git add src/A.txt && git commit -q -m 'Held work' -- src/A.txt",
                            "description", "Commit A.txt")),
                    Step.say("Committed.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel planterModel = new FakeModel(List.of(
                         Step.call("Write", Map.of("file_path", hookFile, "content", planted.replace("\\n", "\n"))),
                         Step.call("Bash", Map.of("command", "printf '" + planted + "' > .git/hooks/pre-commit"
                                 + " && chmod +x .git/hooks/pre-commit", "description", "Install a pre-commit hook")),
                         Step.call("Bash", Map.of("command", "python3 -c \"import os; p='.git/hooks/pre-commit';"
                                 + " open(p,'w').write('" + planted + "'); os.chmod(p, 0o755)\"",
                                 "description", "Install a pre-commit hook with python")),
                         Step.say("Could not install it.")));
                 Claude planter = new Claude(machine, planterModel)) {
                holder.prompt("Write src/A.txt.");
                await("the holder's Stop to keep its dirty file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).containsExactly("src/A.txt"));

                planter.prompt("Install a pre-commit hook.");

                String sent = planterModel.everythingSent();
                assertThat(sent).as(() -> story(machine, holder, planter))
                        .contains("Baton blocked this edit").contains("is a git hook")
                        .contains("would change what git runs in this repository")
                        .contains("Read-only file system");
                assertThat(machine.repo.resolve(".git/hooks/pre-commit")).doesNotExist();

                holder.prompt("Commit src/A.txt.");

                assertThat(machine.run(machine.repo, List.of("git", "log", "-1", "--format=%s")))
                        .as(() -> story(machine, holder, planter)).isEqualTo("Held work\n");
                assertThat(ran).doesNotExist();
                assertThat(machine.read("src/A.txt")).isEqualTo("held work\n");
            }
        }
    }

    /** What each session printed and was told by its tools, and the sidecar's log: why a scenario went astray. */
    static String story(Machine machine, Claude... sessions) {
        StringBuilder story = new StringBuilder();
        for (Claude session : sessions) {
            story.append("\n--- a session printed:\n").append(session.process.output())
                    .append("\n--- and its last tool result was: ").append(lastToolResult(session.model));
        }
        return machine.withSidecarLog(story.toString());
    }

    /** The last tool result Claude Code sent the model, as text. */
    static String lastToolResult(FakeModel model) {
        List<FakeModel.Request> requests = model.requests();
        for (int i = requests.size() - 1; i >= 0; i--) {
            com.fasterxml.jackson.databind.JsonNode messages = requests.get(i).json().path("messages");
            com.fasterxml.jackson.databind.JsonNode last = messages.path(messages.size() - 1);
            for (com.fasterxml.jackson.databind.JsonNode part : last.path("content")) {
                if ("tool_result".equals(part.path("type").asText())) {
                    return part.path("content").toString();
                }
            }
        }
        return "(no tool result)";
    }

    static String path(Machine machine, String file) {
        return machine.repo.resolve(file).toString();
    }
}
