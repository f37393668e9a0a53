package dev.baton.agent.gemini;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.claude.Claude;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import dev.baton.e2e.Step;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gemini CLI 0.61 after a fresh {@code baton install --gemini}, driven by a scripted model. */
class GeminiCliIT {

    private static final Duration SETTLE = Duration.ofMinutes(1);

    @TempDir
    Path root;

    /** Gemini CLI connects to its MCP servers at start: Baton's starts the sidecar, so its tools are there at once. */
    @Test
    void theFirstSessionAfterInstallHasBatonsToolsThoughNoSidecarRanWhenItStarted() {
        try (Machine machine = new Machine(root)) {
            Gemini.configure(machine);
            machine.install("--gemini");
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("mcp_baton_lock_status", Map.of("files", List.of(machine.repo.resolve("Free.txt").toString()))),
                    Step.say("Checked.")));
                 Gemini gemini = new Gemini(machine, model, "Is Free.txt locked?")) {
                assertThat(gemini.awaitExit()).as(gemini.process.output()).isZero();

                assertThat(model.everythingSent()).as(machine.explain(model)).contains("Free.txt is free");
            }
        }
    }

    @Test
    void theFirstEditAfterInstallIsAllowedAndSessionEndFreesIt() throws Exception {
        try (Machine machine = new Machine(root)) {
            Gemini.configure(machine);
            machine.install("--gemini");
            // The user's comments stay in the file Gemini reads Baton's hooks from.
            assertThat(java.nio.file.Files.readString(machine.home.resolve(".gemini/settings.json")))
                    .contains("// Gemini CLI settings", "/* an API key, not a Google login */", "// GEMINI_API_KEY");
            Step.Pause pause = new Step.Pause();
            try (FakeModel model = new FakeModel(List.of(
                    Step.call("write_file", Map.of("file_path", machine.repo.resolve("First.txt").toString(),
                            "content", "first\n")),
                    pause,
                    Step.say("Written.")));
                 Gemini gemini = new Gemini(machine, model, "Write First.txt.")) {
                pause.awaitReached();
                assertThat(machine.read("First.txt")).as(machine.explain(model)).isEqualTo("first\n");
                assertThat(machine.locks()).containsExactly("First.txt");
                pause.resume();

                assertThat(gemini.awaitExit()).as(gemini.process.output()).isZero();
                await("SessionEnd to free every file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
            }
        }
    }

    @Test
    void aFileAnotherLiveSessionHoldsIsDeniedToReplaceWithTheReason() {
        try (Machine machine = new Machine(root)) {
            Gemini.configure(machine);
            machine.install("--claude", "--gemini");
            try (FakeModel holderModel = new FakeModel(List.of(
                    Step.call("Write", Map.of("file_path", machine.repo.resolve("Held.txt").toString(),
                            "content", "claude's\n")),
                    Step.say("Written.")));
                 Claude holder = new Claude(machine, holderModel)) {
                holder.prompt("Write Held.txt.");
                try (FakeModel model = new FakeModel(List.of(
                        Step.call("replace", Map.of("file_path", machine.repo.resolve("Held.txt").toString(),
                                "old_string", "claude's", "new_string", "gemini's", "instruction", "Change the owner")),
                        Step.say("It is held.")));
                     Gemini gemini = new Gemini(machine, model, "Change Held.txt.")) {
                    gemini.awaitExit();
                    assertThat(machine.read("Held.txt")).as(machine.explain(model)).isEqualTo("claude's\n");
                    assertThat(model.everythingSent()).contains("Held.txt is held by")
                            .contains(holder.sessionId().substring(0, 8)).contains("baton negotiate")
                            .contains("try again later").doesNotContain("later..");
                }
            }
        }
    }
}
