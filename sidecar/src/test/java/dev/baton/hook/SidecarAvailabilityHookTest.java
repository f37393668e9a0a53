package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.env;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hook script when Baton is switched off, when the sidecar is down, and when it cannot be started. */
class SidecarAvailabilityHookTest {

    /** The budget (BATON_HOOK_TIMEOUT) the bound tests give the script, and the slack allowed on a busy machine. */
    private static final Duration BOUND = Duration.ofSeconds(6);
    private static final Duration MARGIN = Duration.ofSeconds(4);
    /** The accept queue of the listener that never accepts. */
    private static final int BACKLOG = 1;
    /** A budget that an answer given "at once" stays far below, however busy the machine. */
    private static final String LONG_BUDGET = "40";

    @TempDir
    Path dir;

    private HookHarness harness;

    @BeforeEach
    void prepareHomeWithoutSidecar() throws Exception {
        harness = HookHarness.withoutSidecar(dir);
    }

    @AfterEach
    void stopAnySidecarTheScriptStarted() throws Exception {
        harness.stopSidecarTheScriptStarted();
    }

    @Test
    void claudeFileLockZeroTurnsTheHookOffEvenWithoutASidecar() throws Exception {
        String edit = harness.sample("claude-pretooluse-edit.json");

        ScriptRun off = harness.run("claude", "PreToolUse", edit, env("CLAUDE_FILE_LOCK", "0", "BATON_HOOK_TIMEOUT", LONG_BUDGET));
        ScriptRun batonOff = harness.run("copilot", "preToolUse", edit, env("BATON", "off"));

        assertThat(off.silent()).isTrue();
        assertThat(batonOff.silent()).isTrue();
        assertThat(off.elapsed()).isLessThan(Duration.ofSeconds(Long.parseLong(LONG_BUDGET)));
        assertThat(harness.home().logFile()).doesNotExist();
    }

    @Test
    void aSidecarThatIsDownIsStartedAndTheEditGoesThrough() throws Exception {
        Path wrapper = harness.startingWrapper();

        // A cold JVM on a busy build machine may need more than the default budget to start serving.
        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("BATON_BIN", wrapper.toString(), "BATON_HOOK_TIMEOUT", "30"));

        assertThat(run.silent()).as("stdout=%s stderr=%s log=%s", run.stdout(), run.stderr(), log()).isTrue();
        assertThat(harness.home().readEndpoint()).isPresent();
        assertThat(log()).contains("Baton sidecar serving on 127.0.0.1:");
        ScriptRun denied = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, "someone-else"));
        assertThat(denied.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
    }

    @Test
    void whenTheSidecarCannotStartAClaudeEditFailsClosedWithinTheBound() throws Exception {
        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", Long.toString(BOUND.toSeconds())));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).startsWith("Baton could not check this edit: its sidecar did not start within 6 s")
                .contains("BATON_FAIL_OPEN=1");
        assertThat(run.elapsed()).isLessThan(BOUND.plus(MARGIN));
    }

    @Test
    void withNoBatonCommandToStartAClaudeEditFailsClosedAtOnce() throws Exception {
        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("PATH", "/usr/bin:/bin", "BATON_HOOK_TIMEOUT", LONG_BUDGET));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).contains("no baton command was found to start it");
        assertThat(run.elapsed()).isLessThan(Duration.ofSeconds(Long.parseLong(LONG_BUDGET)));
    }

    @Test
    void whenTheSidecarCannotStartACopilotEditIsDeniedWithJsonAndExitTwo() throws Exception {
        ScriptRun run = harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "1"));

        // Copilot CLI shows the model the JSON's reason after exit 2; after exit 1 only that the hook errored.
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.json().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(run.json().get("permissionDecisionReason").asText())
                .startsWith("Baton could not check this edit: its sidecar did not start within 1 s");
    }

    @Test
    void failOpenLetsTheEditThroughWhenTheSidecarCannotStart() throws Exception {
        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "1", "BATON_FAIL_OPEN", "1"));

        assertThat(run.silent()).isTrue();
    }

    @Test
    void eventsThatAreNotEditsGoAheadWhenTheSidecarCannotStart() throws Exception {
        ScriptRun stop = harness.run("claude", "Stop", harness.sample("claude-stop.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "1"));
        ScriptRun post = harness.run("copilot", "postToolUse", harness.sample("copilot-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "1"));

        assertThat(stop.silent()).isTrue();
        assertThat(post.silent()).isTrue();
    }

    @Test
    void aListenerThatNeverAcceptsWithAFullQueueDeniesTheEditWithinTheBound() throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), BACKLOG);
            List<Socket> queued = new ArrayList<>();
            try {
                // The kernel completes connections into the accept queue until it is full, then drops the SYNs of
                // later ones, whose connect waits (for minutes) for a place that never comes.
                while (!acceptQueueFull(listener.getLocalPort())) {
                    Socket socket = new Socket();
                    socket.connect(listener.getLocalSocketAddress(), 5_000);
                    queued.add(socket);
                }
                looksLikeTheSidecar(listener.getLocalPort());

                ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                        env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "3"));

                assertThat(run.exit()).isEqualTo(2);
                assertThat(run.stderr()).startsWith("Baton could not check this edit: its sidecar did not answer within 3 s");
                assertThat(run.elapsed()).isLessThan(Duration.ofSeconds(3).plus(MARGIN));
            } finally {
                for (Socket socket : queued) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aListenerThatStopsReadingALargeEditDeniesItWithinTheBound() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(listener.accept()); // and never read: the sender's buffers fill and its write waits
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.start();
            try {
                looksLikeTheSidecar(listener.getLocalPort());
                String content = "x".repeat(20 * 1024 * 1024);
                String write = "{\"session_id\":\"" + CLAUDE_SESSION + "\",\"hook_event_name\":\"PreToolUse\",\"cwd\":\""
                        + harness.repo().root() + "\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\""
                        + harness.repo().path("big.txt") + "\",\"content\":\"" + content + "\"}}";

                ScriptRun run = harness.run("claude", "PreToolUse", write.getBytes(StandardCharsets.UTF_8),
                        env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "3"));

                assertThat(run.exit()).isEqualTo(2);
                assertThat(run.stderr()).startsWith("Baton could not check this edit: its sidecar did not answer within 3 s");
                assertThat(run.elapsed()).isLessThan(Duration.ofSeconds(3).plus(MARGIN));
            } finally {
                listener.close();
                acceptor.join();
                for (Socket socket : accepted) {
                    socket.close();
                }
            }
        }
    }

    /** The home names this process as its sidecar, listening on {@code port}, with a token: what the script checks. */
    private void looksLikeTheSidecar(int port) throws IOException {
        harness.home().writePid(ProcessHandle.current().pid());
        harness.home().writeEndpoint(port);
        HookHarness.overwriteToken(harness.home(), "t".repeat(43));
    }

    /**
     * True when the listening socket on {@code port} holds more connections waiting to be accepted than its backlog,
     * as the kernel lists it (for a listener, /proc/net/tcp's rx_queue is the accept queue's length): the kernel then
     * drops the SYNs of new connections.
     */
    private static boolean acceptQueueFull(int port) throws IOException {
        String local = ":" + HexFormat.of().withUpperCase().toHexDigits((short) port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length > 4 && fields[1].endsWith(local) && fields[3].equals("0A")) {
                    return Long.parseLong(fields[4].split(":")[1], 16) > BACKLOG;
                }
            }
        }
        throw new AssertionError("no listener on port " + port + " in /proc/net/tcp{,6}");
    }

    private String log() throws IOException {
        Path log = harness.home().logFile();
        return Files.exists(log) ? Files.readString(log) : "(no sidecar.log)";
    }
}
