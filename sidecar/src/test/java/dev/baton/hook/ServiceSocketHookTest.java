package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sidecar serving a listening socket handed over on its standard input, as a socket-activated service
 * ({@code baton service install}) runs it, and the hook starting it through that socket.
 */
class ServiceSocketHookTest {

    private static final Duration START = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private HookHarness harness;
    private Path perl;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void prepare() throws IOException {
        Optional<Path> found = SidecarLaunch.perl();
        if (found.isEmpty()) {
            System.out.println("skipped: no perl on PATH to hand the sidecar a listening socket on its standard input");
        }
        assumeTrue(found.isPresent(), "no perl on PATH to hand the sidecar a listening socket on its standard input");
        perl = found.get();
        harness = HookHarness.withoutSidecar(dir);
    }

    @AfterEach
    void stopSidecars() throws Exception {
        for (Process process : started) {
            process.destroy();
            process.onExit().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void theSidecarServesTheListeningSocketOnItsStandardInputAndAnnouncesItsPort() throws Exception {
        Path portFile = dir.resolve("port");
        Process sidecar = activated("127.0.0.1", portFile, false);
        int port = Integer.parseInt(awaitFile(portFile).strip());

        await().atMost(START).until(() -> harness.home().readEndpoint().isPresent() || !sidecar.isAlive());

        assertThat(harness.home().readEndpoint()).as("sidecar output: %s", output()).contains("127.0.0.1:" + port);
        assertThat(harness.home().readPid()).hasValue(sidecar.pid());
        ScriptRun mine = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false"));
        ScriptRun other = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, "someone-else"),
                env("BATON_BIN", "/bin/false"));
        assertThat(mine.silent()).as("stdout=%s stderr=%s", mine.stdout(), mine.stderr()).isTrue();
        assertThat(other.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(Files.readString(harness.home().logFile())).contains("(the service manager's socket)");
    }

    @Test
    void aListeningSocketNotBoundToLoopbackIsRefused() throws Exception {
        Process sidecar = activated("0.0.0.0", dir.resolve("port"), false);

        assertThat(sidecar.waitFor(START.toSeconds(), TimeUnit.SECONDS)).isTrue();

        assertThat(sidecar.exitValue()).isNotZero();
        assertThat(output()).contains("the listening socket handed over on standard input is bound to 0.0.0.0:")
                .contains("Baton serves on 127.0.0.1 only")
                .doesNotContain("Exception");
        assertThat(harness.home().readEndpoint()).isEmpty();
    }

    @Test
    void underSocketActivationTheHooksConnectionStartsTheSidecarAndTheEditGoesThrough() throws Exception {
        Path portFile = dir.resolve("port");
        Process activator = activated("127.0.0.1", portFile, true);
        int port = Integer.parseInt(awaitFile(portFile).strip());
        harness.home().writeServiceSocket(port);
        assertThat(harness.home().readEndpoint()).isEmpty();

        // /bin/false: a hook that tried to start a sidecar of its own instead would fail the edit.
        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "2", "BATON_HOOK_START_TIMEOUT", "60"));

        assertThat(run.silent()).as("stdout=%s stderr=%s output=%s", run.stdout(), run.stderr(), output()).isTrue();
        assertThat(harness.home().readEndpoint()).contains("127.0.0.1:" + port);
        assertThat(harness.home().readPid()).hasValue(activator.pid());
        ScriptRun other = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, "someone-else"),
                env("BATON_BIN", "/bin/false"));
        assertThat(other.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
    }

    @Test
    void whenTheServiceSocketIsGoneTheHookStartsTheSidecarItself() throws Exception {
        int closedPort;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        harness.home().writeServiceSocket(closedPort);

        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "1"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).startsWith("Baton could not check this edit: its sidecar did not start within 1 s");
    }

    /**
     * The real thing where the user's systemd is reachable: {@code baton install --service} enables the units, the
     * service is stopped, and a hook call starts it again through the socket. It uses the fixed unit names in the
     * user's own ~/.config/systemd/user, so it runs only when no Baton service is installed there.
     */
    @Test
    void theUsersSystemdStartsTheSidecarThroughItsSocket() throws Exception {
        Path units = Path.of(System.getProperty("user.home"), ".config", "systemd", "user");
        String skip = userSystemdUnusable(units);
        if (skip != null) {
            System.out.println("skipped: " + skip);
        }
        assumeTrue(skip == null, skip);
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put("BATON_HOME", harness.home().dir().toString());
        env.put("BATON_PORT", Integer.toString(port));
        env.put("XDG_DATA_HOME", dir.resolve("data").toString());
        env.put("CLAUDE_CONFIG_DIR", dir.resolve("claude").toString());
        env.remove("XDG_CONFIG_HOME");
        try {
            int installed = new picocli.CommandLine(new dev.baton.installer.InstallCommand(env))
                    .execute("--claude", "--no-mcp", "--service");
            assertThat(installed).isZero();
            assertThat(systemctl("stop", "baton.service")).isZero();
            await().atMost(START).until(() -> harness.home().readEndpoint().isEmpty());

            ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                    env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "2", "BATON_HOOK_START_TIMEOUT", "60"));

            assertThat(run.silent()).as("stdout=%s stderr=%s", run.stdout(), run.stderr()).isTrue();
            assertThat(harness.home().readEndpoint()).contains("127.0.0.1:" + port);
        } finally {
            new picocli.CommandLine(new dev.baton.installer.ServiceCommand(env)).execute("uninstall");
        }
        assertThat(units.resolve("baton.socket")).doesNotExist();
    }

    private static String userSystemdUnusable(Path units) throws Exception {
        if (Files.exists(units.resolve("baton.socket")) || Files.exists(units.resolve("baton.service"))) {
            return "a Baton service is installed in " + units + "; this test does not touch it";
        }
        if (systemctl("show-environment") != 0) {
            return "the user's systemd is not reachable here (`systemctl --user show-environment` failed; PID 1 is "
                    + Files.readString(Path.of("/proc/1/comm")).strip() + ")";
        }
        return null;
    }

    private static int systemctl(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("systemctl", "--user"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(60, TimeUnit.SECONDS) ? process.exitValue() : -1;
        } catch (IOException e) {
            return -1; // no systemctl at all
        }
    }

    /** Perl listening on {@code host}, handing the socket to {@code baton serve} (at once, or at the first connection). */
    private Process activated(String host, Path portFile, boolean waitForConnection) throws IOException {
        Path baton = SidecarLaunch.batonCommand(dir.resolve("baton"), "");
        ProcessBuilder builder = new ProcessBuilder(perl.toString(), SidecarLaunch.activator(dir).toString(), host,
                portFile.toString(), waitForConnection ? "1" : "0", baton.toString(), "serve")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("sidecar-output.txt").toFile());
        builder.environment().put("BATON_HOME", harness.home().dir().toString());
        builder.environment().remove("BATON_PORT");
        Process process = builder.start();
        started.add(process);
        return process;
    }

    private String awaitFile(Path file) throws IOException {
        await().atMost(START).until(() -> Files.exists(file));
        return Files.readString(file);
    }

    private String output() throws IOException {
        Path output = dir.resolve("sidecar-output.txt");
        return Files.exists(output) ? Files.readString(output) : "(no output)";
    }
}
