package dev.baton.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
                assertThat(machine.read("Created.txt")).as(model.everythingSent()).isEqualTo("created\n");
                assertThat(machine.locks()).containsExactly("Created.txt");
                pause.resume();

                assertThat(copilot.awaitExit()).as(copilot.process.output()).isZero();
                await("sessionEnd to free every file").atMost(SETTLE).untilAsserted(() ->
                        assertThat(machine.locks()).isEmpty());
            }
        }
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

                    assertThat(machine.read("Patched.txt")).as(model.everythingSent()).isEqualTo("patched\n");
                    assertThat(machine.read("Held.txt")).isEqualTo("claude's\n");
                    assertThat(model.everythingSent())
                            .contains("Held.txt is held by")
                            .contains(ClaudeCodeIT.sessionId(holder).substring(0, 8))
                            .contains("baton negotiate");
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

    static String path(Machine machine, String file) {
        return machine.repo.resolve(file).toString();
    }
}
