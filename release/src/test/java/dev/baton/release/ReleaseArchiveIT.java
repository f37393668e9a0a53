package dev.baton.release;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user with no JDK meets it: unpacked into a fresh directory and used from a shell whose PATH
 * holds a few programs and no java. Install for every agent, the installed hook as Claude Code runs it, `baton doctor`,
 * the dashboard, and `baton uninstall --purge`, which takes it all away again.
 */
class ReleaseArchiveIT {

    private static final Path ARCHIVE = Path.of(System.getProperty("release.archive", "target/missing.tar.gz"));
    private static final String NAME = System.getProperty("release.name", "baton");
    /** The programs a machine without Java still has, and the hook, the launcher and the sidecar may call. */
    private static final List<String> TOOLS = List.of("bash", "sh", "env", "cat", "mkdir", "rm", "ls", "sleep", "tar",
            "gzip", "git", "setsid", "nohup", "ps", "uname");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private Path home;
    private Path repo;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void aMachineWithoutJava() throws Exception {
        Path tools = Files.createDirectories(temp.resolve("tools"));
        for (String tool : TOOLS) {
            for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
                Path program = Path.of(dir, tool);
                if (Files.isExecutable(program) && !Files.exists(tools.resolve(tool))) {
                    Files.createSymbolicLink(tools.resolve(tool), program);
                }
            }
        }
        home = Files.createDirectories(temp.resolve("home"));
        for (String agent : List.of(".claude", ".copilot", ".codex", ".gemini")) {
            Files.createDirectories(home.resolve(agent));
        }
        env.put("HOME", home.toString());
        env.put("PATH", tools.toString());
        env.put("LANG", "C.UTF-8");
        env.put("BATON_PORT", Integer.toString(freePort()));
        // A cold JVM on a loaded build machine may need more than the default 6 s to start serving.
        env.put("BATON_HOOK_TIMEOUT", "60");
        env.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
        repo = Files.createDirectories(temp.resolve("shop"));
        Files.createDirectories(repo.resolve("src/main/java/shop"));
        Files.writeString(repo.resolve("src/main/java/shop/Cart.java"), "class Cart {}\n");
        assertThat(run(repo, List.of("git", "init", "-q")).exit()).isZero();
    }

    @AfterEach
    void stopASidecarLeftRunning() throws Exception {
        Path pidFile = home.resolve(".local/state/baton/sidecar.pid");
        if (Files.exists(pidFile)) {
            Optional<ProcessHandle> sidecar = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
            if (sidecar.isPresent()) {
                sidecar.get().destroy();
                sidecar.get().onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void unpackedAnywhereItInstallsForEveryAgentWithoutAJdkAndUninstallTakesItAllAway() throws Exception {
        assertThat(run(temp, List.of("bash", "-c", "command -v java")).exit()).as("java is not on PATH").isNotZero();
        Path download = Files.createDirectories(temp.resolve("downloads"));
        assertThat(run(download, List.of("tar", "-xzf", ARCHIVE.toString())).exit()).isZero();
        Path unpacked = download.resolve(NAME);

        Result install = run(repo, List.of(unpacked.resolve("bin/baton").toString(), "install"));

        assertThat(install.exit()).as(install.describe()).isZero();
        assertThat(install.out()).contains("Installing Baton for Claude Code, Copilot CLI, Codex CLI and Gemini CLI")
                .contains("Java runtime, copied from " + unpacked.resolve("runtime"));
        Path data = home.resolve(".local/share/baton");
        assertThat(install.out()).contains("created           " + data.resolve("lib/baton.jsa") + "  (class-data archive, made by "
                + data.resolve("runtime/bin/java") + ")");

        // The download may go: what is installed runs on its own copy of the runtime.
        deleteTree(download);
        String command = JSON.readTree(Files.readString(home.resolve(".claude/settings.json")))
                .at("/hooks/PreToolUse/0/hooks/0/command").asText();
        String edit = sample("claude-pretooluse-edit.json");
        Result allowed = run(repo, List.of("/bin/sh", "-c", command), edit);
        assertThat(allowed.exit()).as(allowed.describe()).isZero();
        assertThat(allowed.out() + allowed.err()).isEmpty();
        Result denied = run(repo, List.of("/bin/sh", "-c", command), edit.replace("3f2a9c1e-7b4d", "0ther5e5-7b4d"));
        assertThat(JSON.readTree(denied.out()).at("/hookSpecificOutput/permissionDecision").asText())
                .as(denied.describe()).isEqualTo("deny");
        long sidecar = pid().orElseThrow();
        assertThat(Files.readSymbolicLink(Path.of("/proc", Long.toString(sidecar), "exe")))
                .isEqualTo(data.resolve("runtime/bin/java").toRealPath());

        Path baton = home.resolve(".local/bin/baton");
        Result doctor = run(repo, List.of(baton.toString(), "doctor", "--project", repo.toString()));
        assertThat(doctor.out()).as(doctor.describe()).contains("✔ Claude hook run").contains("✔ Codex MCP run")
                .contains("✔ Gemini MCP run").contains("✔ Copilot MCP run").contains("All checks passed.");
        assertThat(doctor.exit()).isZero();

        Path picture = temp.resolve("dashboard.png");
        Result dashboard = run(repo, List.of(baton.toString(), "dashboard", "--screenshot", picture.toString(),
                "--size", "1280x800"));
        assertThat(dashboard.exit()).as(dashboard.describe()).isZero();
        assertThat(Files.size(picture)).isGreaterThan(10_000);

        Result uninstall = run(repo, List.of(baton.toString(), "uninstall", "--purge"));

        assertThat(uninstall.exit()).as(uninstall.describe()).isZero();
        assertThat(ProcessHandle.of(sidecar).map(ProcessHandle::isAlive).orElse(false)).as("the sidecar was stopped").isFalse();
        assertThat(data).doesNotExist();
        assertThat(baton).doesNotExist();
        try (Stream<Path> left = Files.walk(home)) {
            assertThat(left.filter(path -> !path.startsWith(home.resolve(".local/state/baton"))
                    && !path.startsWith(home.resolve(".openjfx")) && !Files.isDirectory(path)))
                    .as("files left in HOME besides BATON_HOME and JavaFX's cache").isEmpty();
        }
    }

    @Test
    void theRuntimeHoldsEveryModuleTheProgramAndTheDashboardUse() throws Exception {
        Path download = Files.createDirectories(temp.resolve("downloads"));
        assertThat(run(download, List.of("tar", "-xzf", ARCHIVE.toString())).exit()).isZero();
        Path unpacked = download.resolve(NAME);
        String release = Files.readString(unpacked.resolve("runtime/release"));
        List<String> linked = Arrays.asList(release.replaceAll("(?s).*MODULES=\"([^\"]*)\".*", "$1").split(" "));

        for (String jar : List.of("lib/baton.jar", "lib/baton-dashboard.jar")) {
            ProcessBuilder jdeps = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jdeps").toString(),
                    "--ignore-missing-deps", "--print-module-deps", "--multi-release", "17",
                    unpacked.resolve(jar).toString()).redirectErrorStream(true);
            Process process = jdeps.start();
            String modules = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(process.waitFor(300, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as(modules).isZero();
            assertThat(linked).as("the runtime's modules, for %s", jar).containsAll(Arrays.asList(modules.split(",")));
        }
        assertThat(unpacked.resolve("runtime/lib/server/classes.jsa")).isRegularFile();
        assertThat(unpacked.resolve("bin/baton")).isExecutable();
        assertThat(unpacked.resolve("bin/baton-hook")).isExecutable();
        assertThat(unpacked.resolve("bin/baton-mcp")).isExecutable();
        assertThat(unpacked.resolve("bin/baton-sidecar.bash")).isRegularFile();
        assertThat(unpacked.resolve("bin/baton-sidecar-start.bash")).isRegularFile();
        assertThat(unpacked.resolve("runtime/bin/java")).isExecutable();
    }

    private OptionalLong pid() throws IOException {
        Path pidFile = home.resolve(".local/state/baton/sidecar.pid");
        return Files.exists(pidFile) ? OptionalLong.of(Long.parseLong(Files.readString(pidFile).strip())) : OptionalLong.empty();
    }

    private String sample(String name) throws IOException {
        try (InputStream in = ReleaseArchiveIT.class.getResourceAsStream("/hook-samples/" + name)) {
            if (in == null) {
                throw new IOException("no sample " + name + " in src/test/resources/hook-samples");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("/home/dev/shop", repo.toString());
        }
    }

    private Result run(Path dir, List<String> command) throws IOException, InterruptedException {
        return run(dir, command, null);
    }

    /** Runs a command in this machine's environment alone (its HOME, its PATH without java), stdin given or closed. */
    private Result run(Path dir, List<String> command, String stdin) throws IOException, InterruptedException {
        Path out = Files.createTempFile(temp, "run", ".out");
        Path err = Files.createTempFile(temp, "run", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not finish within 300 s: " + command);
        }
        return new Result(command, process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A command's exit code and what it printed. */
    private record Result(List<String> command, int exit, String out, String err) {
        String describe() {
            return String.join(" ", command) + " exited " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
