package dev.baton.hook;

import static dev.baton.hook.HookHarness.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sidecars started at the same moment on one home, as an agent's hook and its MCP server do on a machine where none
 * runs, and a person's `baton serve` beside them: one sidecar serves, the others wait for it and end, and the log says
 * nothing alarming.
 */
class ConcurrentStartHookTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";

    @TempDir
    Path dir;

    private HookHarness harness;
    private Path baton;
    /** The starts this test made itself; a hook's start is found by its pid file or its home. */
    private final List<Process> started = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void prepare() throws IOException {
        harness = HookHarness.withoutSidecar(dir);
        baton = harness.startingWrapper();
    }

    @AfterEach
    void stopEverySidecarOfThisHome() throws Exception {
        List<ProcessHandle> sidecars = new java.util.ArrayList<>(sidecarsOfThisHome());
        started.forEach(process -> sidecars.add(process.toHandle()));
        harness.home().readPid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(sidecars::add));
        for (ProcessHandle sidecar : sidecars) {
            sidecar.destroy();
        }
        for (ProcessHandle sidecar : sidecars) {
            sidecar.onExit().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aHookAnMcpServerAndTheCommandLineStartingAtOnceLeaveOneSidecarAndACleanLog() throws Exception {
        Map<String, String> agentEnv = env("BATON_BIN", baton.toString(), "BATON_HOOK_TIMEOUT", "60");
        CountDownLatch go = new CountDownLatch(1);
        CompletableFuture<ScriptRun> hook = CompletableFuture.supplyAsync(() -> afterGo(go, () ->
                harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"), agentEnv)));
        CompletableFuture<ScriptRun> mcp = CompletableFuture.supplyAsync(() -> afterGo(go, () ->
                harness.runMcp(INITIALIZE + "\n", agentEnv)));
        Path cliOut = dir.resolve("cli.out");
        CompletableFuture<Process> cli = CompletableFuture.supplyAsync(() -> afterGo(go, () -> {
            ProcessBuilder serve = new ProcessBuilder(baton.toString(), "serve")
                    .redirectErrorStream(true).redirectOutput(cliOut.toFile());
            harness.scriptEnvironment(serve.environment(), Map.of());
            Process process = serve.start();
            started.add(process);
            return process;
        }));

        go.countDown();

        ScriptRun edit = hook.get(120, TimeUnit.SECONDS);
        ScriptRun initialize = mcp.get(120, TimeUnit.SECONDS);
        assertThat(edit.silent()).as("the edit is allowed: %s; log: %s", edit, log()).isTrue();
        JsonNode answer = Json.mapper().readTree(initialize.stdout());
        assertThat(answer.at("/result/serverInfo/name").asText()).as(initialize.stdout()).isEqualTo("baton");
        long serving = harness.home().readPid().orElseThrow();
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(sidecarsOfThisHome())
                .as("the sidecars of this home").extracting(ProcessHandle::pid).containsExactly(serving));
        Process person = cli.get(10, TimeUnit.SECONDS);
        if (person.pid() != serving) {
            // The person's start lost: it waited for the winner and told them, on their terminal only.
            assertThat(person.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(person.exitValue()).isNotZero();
            assertThat(Files.readString(cliOut)).contains("a sidecar is already running on " + harness.home().dir()
                    + " (pid " + serving + ", endpoint " + harness.home().readEndpoint().orElseThrow() + ")");
        }
        List<String> lines = Files.readAllLines(harness.home().logFile());
        assertThat(lines).filteredOn(line -> line.contains("Baton sidecar serving on")).hasSize(1);
        assertThat(lines).noneMatch(line -> line.contains("already running") || line.contains("stop it first")
                || line.contains("WARN") || line.contains("ERROR") || line.contains("Exception"));
    }

    @Test
    void aStartThatFindsTheHomeTakenWaitsAndStartsInItsPlaceWhenTheOtherGivesUpWithoutServing() throws Exception {
        Process start;
        Files.createDirectories(harness.home().dir());
        try (FileChannel channel = FileChannel.open(harness.home().lockFile(), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock other = channel.lock()) {
            // As a hook starts it: detached, its output appended to the log.
            ProcessBuilder builder = new ProcessBuilder(baton.toString(), "serve").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(harness.home().logFile().toFile()));
            harness.scriptEnvironment(builder.environment(), Map.of());
            start = builder.start();
            started.add(start);
            // It found the lock taken and watches it (an older start gave up at once, saying so in the log).
            await().atMost(Duration.ofSeconds(90)).until(() -> !start.isAlive() || holdsOpen(start, harness.home().lockFile()));
            assertThat(start.isAlive()).as("the start waits; log: %s", log()).isTrue();
        }

        await().atMost(Duration.ofSeconds(90)).until(() -> !start.isAlive() || harness.home().readEndpoint().isPresent());

        assertThat(harness.home().readPid()).hasValue(start.pid());
        assertThat(log()).contains("Baton sidecar serving on").doesNotContain("already running");
    }

    /** This build's sidecars on this test's home: processes running `serve` with its BATON_HOME. */
    private List<ProcessHandle> sidecarsOfThisHome() {
        String home = "BATON_HOME=" + harness.home().dir();
        return ProcessHandle.allProcesses()
                .filter(process -> proc(process, "cmdline").contains("serve"))
                .filter(process -> proc(process, "environ").contains(home))
                .toList();
    }

    /** A NUL-separated file of /proc/PID, as its entries; none once the process is gone. */
    private static List<String> proc(ProcessHandle process, String file) {
        try {
            return List.of(new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), file)),
                    StandardCharsets.UTF_8).split("\0"));
        } catch (IOException | SecurityException gone) {
            return List.of();
        }
    }

    /** Whether the process has {@code file} open, as its /proc/PID/fd lists it. */
    private static boolean holdsOpen(Process process, Path file) throws IOException {
        Path fds = Path.of("/proc", Long.toString(process.pid()), "fd");
        try (var entries = Files.list(fds)) {
            return entries.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(file.toRealPath());
                } catch (IOException closed) {
                    return false;
                }
            });
        } catch (IOException exited) {
            return false;
        }
    }

    private String log() throws IOException {
        Path log = harness.home().logFile();
        return Files.exists(log) ? Files.readString(log) : "(no sidecar.log)";
    }

    private static <T> T afterGo(CountDownLatch go, Starter<T> starter) {
        try {
            go.await();
            return starter.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Something the test starts once the three are ready. */
    private interface Starter<T> {
        T start() throws IOException;
    }
}
