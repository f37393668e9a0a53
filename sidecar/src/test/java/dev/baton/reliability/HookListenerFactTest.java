package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.support.ChildProcess;
import dev.baton.support.OtherUser;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hook remembers a listener check that passed in {@code hook-listener} (the sidecar's pid, its start in clock
 * ticks since boot, the port, the boot's id) and then skips the kernel's tables. A remembered line that does not
 * describe the process sidecar.pid names now, on this port and this boot, is never taken for proof: another user's
 * listener on a leftover endpoint still gets nothing.
 */
class HookListenerFactTest {

    private static final Path SCRIPT = Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();
    private static final String PAYLOAD =
            "{\"session_id\":\"s\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/tmp/x\",\"content\":\"secret\"}}";

    @TempDir Path dir;

    @Test
    void aPassedCheckIsRememberedForThisSidecarStartInAFileOnlyTheUserCanRead() throws Exception {
        BatonHome home = home();
        Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of);
        try {
            int port = home.readEndpointPort().orElseThrow();
            Process hook = hook(home, "{\"session_id\":\"s\",\"hook_event_name\":\"Stop\"}", "Stop");
            assertThat(hook.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(hook.exitValue()).isZero();

            Path fact = home.dir().resolve("hook-listener");
            long self = ProcessHandle.current().pid();
            assertThat(Files.readString(fact)).isEqualTo(self + " " + startTicks(self) + " " + port + " " + bootId() + "\n");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fact))).isEqualTo("rw-------");
        } finally {
            sidecar.close();
        }
    }

    /**
     * A crashed sidecar left its endpoint, its pid is now a live process of ours, another user listens on the port,
     * and hook-listener holds a line that differs from the truth in one field: the hook reads the tables, finds the
     * listener is not ours, and sends nothing.
     */
    @ParameterizedTest
    @ValueSource(strings = {"another start (the pid was reused)", "another pid (the sidecar restarted)",
            "another port", "another boot"})
    void aRememberedLineThatDoesNotDescribeTheRunningSidecarIsNoProof(String stale) throws Exception {
        BatonHome home = home();
        try (OtherUser.Listener squatter = OtherUser.listen(); ChildProcess ours = ChildProcess.sleeping()) {
            int port = squatter.port();
            home.writeEndpoint(port);
            home.writePid(ours.pid());
            long start = startTicks(ours.pid());
            String line = switch (stale) {
                case "another start (the pid was reused)" -> ours.pid() + " " + (start + 1) + " " + port + " " + bootId();
                case "another pid (the sidecar restarted)" -> (ours.pid() + 1) + " " + start + " " + port + " " + bootId();
                case "another port" -> ours.pid() + " " + start + " " + (port + 1) + " " + bootId();
                default -> ours.pid() + " " + start + " " + port + " 00000000-0000-0000-0000-000000000000";
            };
            Files.writeString(home.dir().resolve("hook-listener"), line + "\n");

            Process hook = hook(home, PAYLOAD, "PreToolUse");
            assertThat(hook.waitFor(60, TimeUnit.SECONDS)).isTrue();

            try (Socket sentinel = new Socket("127.0.0.1", port)) {
                sentinel.getOutputStream().write("SENTINEL\n".getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(squatter.nextHeard()).as("the first thing the squatter heard").isEqualTo("got: SENTINEL");
            assertThat(hook.exitValue()).isEqualTo(2);
            assertThat(Files.readString(home.dir().resolve("hook-listener"))).as("nothing new remembered").isEqualTo(line + "\n");
        }
    }

    private BatonHome home() throws IOException {
        Path homeDir = Files.createDirectory(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        BatonHome home = new BatonHome(homeDir);
        home.ensureToken();
        return home;
    }

    private static Process hook(BatonHome home, String payload, String event) throws IOException {
        ProcessBuilder run = new ProcessBuilder(SCRIPT.toString(), "claude", event).redirectErrorStream(true);
        run.environment().put("BATON_HOME", home.dir().toString());
        run.environment().put("BATON_HOOK_TIMEOUT", "5");
        // The hook tries to start a sidecar (none starts) and asks again until its start budget is spent: 5 s, not 20.
        run.environment().put("BATON_HOOK_START_TIMEOUT", "5");
        run.environment().put("BATON_BIN", "/bin/false"); // nothing to start: a sidecar not ours stays "not running"
        run.environment().remove("BATON_FAIL_OPEN");
        Process hook = run.start();
        try (OutputStream in = hook.getOutputStream()) {
            in.write(payload.getBytes(StandardCharsets.UTF_8));
        }
        return hook;
    }

    /** Field 22 of /proc/PID/stat, counted after the command name (which may hold spaces and parentheses). */
    private static long startTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
    }

    private static String bootId() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
    }
}
