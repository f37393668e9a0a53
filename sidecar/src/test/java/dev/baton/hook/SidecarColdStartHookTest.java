package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook waiting for a sidecar it has just started: longer than for a running one (BATON_HOOK_START_TIMEOUT
 * rather than BATON_HOOK_TIMEOUT), and still bounded. The start is held on a FIFO that the test opens when it
 * chooses, so how slow the start is does not depend on the machine.
 */
class SidecarColdStartHookTest {

    @TempDir
    Path dir;

    private HookHarness harness;
    private Path gate;
    private Path reached;

    @BeforeEach
    void prepare() throws Exception {
        harness = HookHarness.withoutSidecar(dir);
        gate = dir.resolve("gate");
        reached = dir.resolve("reached");
        Process mkfifo = new ProcessBuilder("mkfifo", gate.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).as("mkfifo").isTrue();
    }

    @AfterEach
    void stopTheHeldStart() throws Exception {
        if (Files.exists(reached)) {
            // the held command's pid, which became the sidecar's if it went on (exec keeps the pid)
            Optional<ProcessHandle> held = ProcessHandle.of(Long.parseLong(Files.readString(reached).strip()));
            if (held.isPresent()) {
                held.get().destroy();
                held.get().onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aSidecarSlowerToStartThanTheCallBudgetStillLetsTheEditThrough() throws Exception {
        Path baton = heldBatonCommand();
        Duration callBudget = Duration.ofSeconds(1);

        CompletableFuture<ScriptRun> run = CompletableFuture.supplyAsync(() -> runHook(env("BATON_BIN", baton.toString(),
                "BATON_HOOK_TIMEOUT", Long.toString(callBudget.toSeconds()), "BATON_HOOK_START_TIMEOUT", "90")));
        // The held command started after the hook did: once its start is a call budget past, so is the hook's.
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(reached)
                && Instant.now().isAfter(Files.getLastModifiedTime(reached).toInstant().plus(callBudget).plusMillis(200)));
        assertThat(run).as("the hook gave up within its call budget: %s", run.getNow(null)).isNotDone();
        try (Writer opened = Files.newBufferedWriter(gate)) {
            opened.write("go\n");
        }
        ScriptRun result = run.get(120, TimeUnit.SECONDS);

        assertThat(result.silent()).as("stdout=%s stderr=%s", result.stdout(), result.stderr()).isTrue();
        ScriptRun other = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, "someone-else"));
        assertThat(other.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
    }

    @Test
    void aStartThatNeverCompletesIsDeniedOnceTheStartBudgetIsSpent() throws Exception {
        Path baton = heldBatonCommand();

        ScriptRun run = runHook(env("BATON_BIN", baton.toString(), "BATON_HOOK_TIMEOUT", "1",
                "BATON_HOOK_START_TIMEOUT", "3"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).startsWith("Baton could not check this edit: its sidecar did not start within 3 s");
        assertThat(run.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(2800));
        assertThat(Files.exists(reached)).as("the start was attempted").isTrue();
        assertThat(harness.home().readEndpoint()).isEmpty();
    }

    /** A baton command that writes its pid, then waits for the test to open the gate before it starts the sidecar. */
    private Path heldBatonCommand() throws IOException {
        return SidecarLaunch.batonCommand(dir.resolve("baton"),
                "echo $$ > '" + reached + "'\nread go < '" + gate + "'\n", "--port", "0");
    }

    private ScriptRun runHook(java.util.Map<String, String> env) {
        try {
            return harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"), env);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
