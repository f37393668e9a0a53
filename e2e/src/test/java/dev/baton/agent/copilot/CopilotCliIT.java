package dev.baton.agent.copilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.baton.agent.claude.Claude;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GitHub Copilot CLI 1.0 after a fresh {@code baton install --copilot}, driven by a scripted model. */
class CopilotCliIT {

    private static final Duration SETTLE = Duration.ofMinutes(1);

    @TempDir
    Path root;

    /**
     * Copilot CLI starts its MCP servers as the session starts, before any hook could start the sidecar: Baton's
     * server is the hook script over stdio, which starts the sidecar itself, so its tools are there from the first
     * session.
     */
    @Test
    void theFirstSessionAfterInstallHasBatonsToolsThoughNoSidecarRanWhenItStarted() {
        try (Machine machine = new Machine(root)) {
            machine.install("--copilot");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("baton-lock_status", Map.of("files", List.of(path(machine, "Free.txt")))),
                    Step.say("Checked.")));
                 Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Is Free.txt locked?")) {
                assertThat(copilot.awaitExit()).as(copilot.process.output()).isZero();

                assertThat(model.everythingSent()).as(machine.explain(model)).contains("Free.txt is free");
            }
        }
    }

    @Test
    void theFirstEditAfterInstallIsAllowedAndSessionEndFreesIt() {
        try (Machine machine = new Machine(root)) {
            machine.install("--copilot");
            Step.Pause pause = new Step.Pause();
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("create", Map.of("path", path(machine, "Created.txt"), "file_text", "created\n")),
                    pause,
                    Step.say("Created.")));
                 Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Create Created.txt.")) {
                pause.awaitReached();
                assertThat(machine.read("Created.txt")).as(machine.explain(model)).isEqualTo("created\n");
                assertThat(machine.locks()).containsExactly("Created.txt");
                pause.resume();

                assertThat(copilot.awaitExit()).as(copilot.process.output()).isZero();
                await("sessionEnd to free every file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
            }
        }
    }

    /**
     * Copilot's agentStop is the turn's end: the file the turn changed and changed back is released then, as clean;
     * the new file stays held until sessionEnd. Both come within a second in {@code -p} mode, so the audit trail
     * tells which event released which file.
     */
    @Test
    void agentStopFreesTheFileTheTurnLeftCleanAndSessionEndTheNewOne() {
        try (Machine machine = new Machine(root)) {
            machine.write("src/Clean.txt", "unchanged\n");
            machine.commitAll();
            machine.install("--copilot");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("create", Map.of("path", path(machine, "src/New.txt"), "file_text", "new\n")),
                    Step.call("edit", Map.of("path", path(machine, "src/Clean.txt"), "old_str", "unchanged", "new_str", "changed")),
                    Step.call("edit", Map.of("path", path(machine, "src/Clean.txt"), "old_str", "changed", "new_str", "unchanged")),
                    Step.say("New.txt is new; Clean.txt is as it was.")));
                 Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Create New.txt and touch Clean.txt.")) {
                assertThat(copilot.awaitExit()).as(copilot.process.output()).isZero();

                assertThat(machine.read("src/New.txt")).as(machine.explain(model)).isEqualTo("new\n");
                assertThat(machine.read("src/Clean.txt")).isEqualTo("unchanged\n");
                await("sessionEnd to free every file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
                assertThat(releases(machine, "src/Clean.txt")).containsExactly("auto-clean");
                assertThat(releases(machine, "src/New.txt")).containsExactly("session-ended");
            }
        }
    }

    /** The reasons of a file's releases, oldest first, from {@code baton history --json}. */
    private static List<String> releases(Machine machine, String file) {
        List<String> reasons = new java.util.ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode entry : Machine.parse(machine.baton("history", "--json",
                machine.repo.resolve(file).toString())).path("entries")) {
            if (entry.path("action").asText().equals("release")) {
                reasons.add(0, entry.path("reason").asText());
            }
        }
        return reasons;
    }

    @Test
    void applyPatchIsCheckedAndAFileAnotherLiveSessionHoldsIsDeniedWithTheReason() {
        try (Machine machine = new Machine(root)) {
            machine.install("--claude", "--copilot");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Held.txt"), "content", "claude's\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel)) {
                holder.prompt("Write Held.txt.");
                try (FakeModel model = new FakeModel(List.of(
                        Step.freeform("apply_patch", "*** Begin Patch\n*** Add File: " + path(machine, "Patched.txt")
                                + "\n+patched\n*** End Patch\n"),
                        Step.freeform("apply_patch", "*** Begin Patch\n*** Update File: " + path(machine, "Held.txt")
                                + "\n@@\n-claude's\n+copilot's\n*** End Patch\n"),
                        Step.say("One of them was held.")));
                     Copilot copilot = new Copilot(machine, model, "gpt-5.4", "Patch the two files.")) {
                    copilot.awaitExit();

                    assertThat(machine.read("Patched.txt")).as(machine.explain(model)).isEqualTo("patched\n");
                    assertThat(machine.read("Held.txt")).isEqualTo("claude's\n");
                    assertThat(model.everythingSent())
                            .contains("Held.txt is held by")
                            .contains(holder.sessionId().substring(0, 8))
                            .contains("baton negotiate").contains("try again later").doesNotContain("later..");
                }
            }
        }
    }

    @Test
    void aCreateThatFailsLeavesNoLockBehind() {
        try (Machine machine = new Machine(root)) {
            machine.install("--copilot");
            Step.Pause pause = new Step.Pause();
            try (FakeModel model = new FakeModel(List.of(
                    // Copilot's create fails when the parent directory is missing; its preToolUse hook came first.
                    Step.call("create", Map.of("path", path(machine, "missing/Failed.txt"), "file_text", "never\n")),
                    pause,
                    Step.say("That failed.")));
                 Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Create missing/Failed.txt.")) {
                pause.awaitReached();
                assertThat(machine.read("missing/Failed.txt")).isNull();
                assertThat(model.everythingSent()).contains("does not exist").doesNotContain("Baton could not check");
                await("the failed edit's lock to go while the session lives").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
                pause.resume();
                copilot.awaitExit();
            }
        }
    }

    /**
     * Another web server holds the sidecar's port, so the sidecar the hook starts exits at once: the edit is denied,
     * and the model is told why and what to do, not only that a hook failed.
     */
    @Test
    void anEditBatonCannotCheckIsDeniedAndTheModelLearnsWhyAndWhatToDo() throws Exception {
        try (Machine machine = new Machine(root)) {
            machine.install("--copilot");
            // It answers every request at once, as a web server would: Copilot's MCP client then gives up on Baton's
            // MCP server quickly instead of waiting a minute for an answer.
            HttpServer squatter = HttpServer.create(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), machine.batonPort), 0);
            squatter.createContext("/", exchange -> {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
            });
            squatter.start();
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("create", Map.of("path", path(machine, "Unchecked.txt"), "file_text", "never\n")),
                    Step.say("Baton could not check it.")));
                 Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Create Unchecked.txt.",
                         Map.of("BATON_HOOK_START_TIMEOUT", "3"))) {
                copilot.awaitExit();

                assertThat(machine.read("Unchecked.txt")).isNull();
                assertThat(model.everythingSent())
                        .contains("Baton could not check this edit: its sidecar did not start within")
                        .contains("BATON_FAIL_OPEN=1");
                assertThat(machine.sidecarLog()).contains("port " + machine.batonPort + " is in use");
            } finally {
                squatter.stop(0);
            }
        }
    }

    static String path(Machine machine, String file) {
        return machine.repo.resolve(file).toString();
    }

    /**
     * Copilot CLI takes a command its hook rewrote (modifiedArgs) without an explicit allow: while Claude Code holds
     * a file, Baton has Copilot's bash run each command through its wrapper, so a write no check before the command
     * can read (python) fails on the read-only file, and Copilot's model is told why.
     */
    @Test
    void whileAnotherSessionHoldsAFileCopilotsCommandsRunThroughTheWrapperAndCannotChangeIt() {
        try (Machine machine = new Machine(root)) {
            machine.write("Held.txt", "original\n");
            machine.commitAll();
            machine.install("--claude", "--copilot");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", machine.repo.resolve("Held.txt").toString(), "content", "held work\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel model = new FakeModel(List.of(
                         Step.call("bash", Map.of("command", "python3 -c \"open('Held.txt','w').write('overwritten')\"",
                                 "description", "Rewrite Held.txt")),
                         Step.say("Tried.")))) {
                holder.prompt("Write Held.txt.");
                try (Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Rewrite Held.txt.")) {
                    assertThat(copilot.awaitExit()).as(copilot.process.output()).isZero();
                }

                assertThat(machine.read("Held.txt")).as(machine.explain(model)).isEqualTo("held work\n");
                assertThat(model.everythingSent()).as(machine.explain(model))
                        .contains("Read-only file system").contains("Held.txt (held by claude-code session");
                assertThat(machine.holderOf("Held.txt")).isEqualTo(holder.sessionId());
            }
        }
    }
}
