package dev.baton.agent.opencode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.claude.Claude;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenCode 1.18 after a fresh {@code baton install --opencode}, driven by a scripted model: no hook process, Baton's
 * plug-in inside OpenCode asks the sidecar about every edit and bash call and tells it of each turn's end.
 */
class OpenCodeIT {

    private static final Duration SETTLE = Duration.ofMinutes(1);

    @TempDir
    Path root;

    private static String path(Machine machine, String file) {
        return machine.repo.resolve(file).toString();
    }

    /** OpenCode starts its MCP servers at start: Baton's starts the sidecar, so its tools are there at once. */
    @Test
    void theFirstSessionAfterInstallHasBatonsToolsThoughNoSidecarRanWhenItStarted() {
        try (Machine machine = new Machine(root)) {
            OpenCode.configure(machine);
            machine.install("--opencode");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("baton_lock_status", Map.of("files", List.of(path(machine, "Free.txt")))),
                    Step.say("Checked.")));
                 OpenCode opencode = new OpenCode(machine, model, "Is Free.txt locked?")) {
                assertThat(opencode.awaitExit()).as(opencode.process.output()).isZero();

                assertThat(model.everythingSent()).as(machine.explain(model)).contains("Free.txt is free");
            }
        }
    }

    @Test
    void theFirstEditAfterInstallIsAllowedAndHeldByTheOpenCodeSession() {
        try (Machine machine = new Machine(root)) {
            OpenCode.configure(machine);
            machine.install("--opencode");
            Step.Pause pause = new Step.Pause();
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("write", Map.of("filePath", path(machine, "First.txt"), "content", "first\n")),
                    pause,
                    Step.say("Written.")));
                 OpenCode opencode = new OpenCode(machine, model, "Write First.txt.")) {
                pause.awaitReached();
                assertThat(machine.read("First.txt")).as(machine.explain(model)).isEqualTo("first\n");
                assertThat(machine.locks()).containsExactly("First.txt");
                assertThat(machine.holderOf("First.txt")).as("OpenCode's own session id").startsWith("ses_");
                pause.resume();

                assertThat(opencode.awaitExit()).as(opencode.process.output()).isZero();
                await("OpenCode's exit to free its files").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
            }
        }
    }

    /**
     * session.idle ends the turn: the file the turn left as it was goes back at once ("auto-clean"); the new file
     * stays held until OpenCode is gone.
     */
    @Test
    void theTurnsEndFreesTheFileTheTurnLeftCleanAndKeepsTheNewOne() {
        try (Machine machine = new Machine(root)) {
            machine.write("src/Clean.txt", "unchanged\n");
            machine.commitAll();
            OpenCode.configure(machine);
            machine.install("--opencode");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("write", Map.of("filePath", path(machine, "src/New.txt"), "content", "new\n")),
                    Step.call("edit", Map.of("filePath", path(machine, "src/Clean.txt"), "oldString", "unchanged",
                            "newString", "changed")),
                    Step.call("edit", Map.of("filePath", path(machine, "src/Clean.txt"), "oldString", "changed",
                            "newString", "unchanged")),
                    Step.say("New.txt is new; Clean.txt is as it was.")));
                 OpenCode opencode = new OpenCode(machine, model, "Create New.txt and touch Clean.txt.")) {
                assertThat(opencode.awaitExit()).as(opencode.process.output()).isZero();

                assertThat(machine.read("src/New.txt")).as(machine.explain(model)).isEqualTo("new\n");
                assertThat(machine.read("src/Clean.txt")).isEqualTo("unchanged\n");
                await("the turn's end and OpenCode's exit to free every file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
                assertThat(releases(machine, "src/Clean.txt")).containsExactly("auto-clean");
                assertThat(releases(machine, "src/New.txt")).doesNotContain("auto-clean").hasSize(1);
            }
        }
    }

    @Test
    void aFileAnotherLiveSessionHoldsIsDeniedAndTheModelReadsWhoHoldsIt() {
        try (Machine machine = new Machine(root)) {
            OpenCode.configure(machine);
            machine.install("--claude", "--opencode");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Held.txt"), "content", "claude's\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel)) {
                holder.prompt("Write Held.txt.");
                try (FakeModel model = new FakeModel(List.of(
                        Step.call("edit", Map.of("filePath", path(machine, "Held.txt"), "oldString", "claude's",
                                "newString", "opencode's")),
                        Step.say("It is held.")));
                     OpenCode opencode = new OpenCode(machine, model, "Change Held.txt.")) {
                    opencode.awaitExit();

                    assertThat(machine.read("Held.txt")).as(machine.explain(model)).isEqualTo("claude's\n");
                    assertThat(model.everythingSent()).as(machine.explain(model)).contains("Held.txt is held by")
                            .contains(holder.sessionId().substring(0, 8)).contains("baton negotiate")
                            .contains("try again later").doesNotContain("later..");
                    assertThat(machine.holderOf("Held.txt")).isEqualTo(holder.sessionId());
                }
            }
        }
    }

    /**
     * The plug-in has OpenCode's bash run the command through Baton's wrapper while another session holds files: a
     * write no check before the command can read (python) fails on the read-only file, and the model is told why.
     */
    @Test
    void whileAnotherSessionHoldsAFileAShellWriteToItIsStoppedByTheKernel() {
        try (Machine machine = new Machine(root)) {
            machine.write("Held.txt", "original\n");
            machine.commitAll();
            OpenCode.configure(machine);
            machine.install("--claude", "--opencode");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", path(machine, "Held.txt"), "content", "held work\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel);
                 FakeModel model = new FakeModel(List.of(
                         Step.call("bash", Map.of("command", "python3 -c \"open('Held.txt','w').write('overwritten')\"",
                                 "description", "Rewrite Held.txt")),
                         Step.say("Tried.")))) {
                holder.prompt("Write Held.txt.");
                try (OpenCode opencode = new OpenCode(machine, model, "Rewrite Held.txt.")) {
                    assertThat(opencode.awaitExit()).as(opencode.process.output()).isZero();
                }

                assertThat(machine.read("Held.txt")).as(machine.explain(model)).isEqualTo("held work\n");
                assertThat(model.everythingSent()).as(machine.explain(model))
                        .contains("Read-only file system").contains("Held.txt (held by claude-code session");
                assertThat(machine.holderOf("Held.txt")).isEqualTo(holder.sessionId());
            }
        }
    }

    /** The reasons of a file's releases, oldest first, from {@code baton history --json}. */
    private static List<String> releases(Machine machine, String file) {
        List<String> reasons = new ArrayList<>();
        for (JsonNode entry : Machine.parse(machine.baton("history", "--json", path(machine, file))).path("entries")) {
            if (entry.path("action").asText().equals("release")) {
                reasons.add(0, entry.path("reason").asText());
            }
        }
        return reasons;
    }
}
