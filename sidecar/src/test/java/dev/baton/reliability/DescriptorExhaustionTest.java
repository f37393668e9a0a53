package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.BatonCli;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar whose file descriptors would run out: a real {@code baton serve} under a low descriptor limit, sent many
 * more connections than it has descriptors for, each a request begun and never finished. It must keep accepting (a
 * sidecar that stops leaves new connections in the kernel's queue, where a hook waits) and answer an agent's hook
 * call, run as the agent runs it, at once.
 */
class DescriptorExhaustionTest {

    /** Descriptors the sidecar may have: enough to start and serve, far fewer than the connections below. */
    private static final int DESCRIPTORS = 400;
    private static final int TRICKLING = 1_000;
    private static final Path SCRIPT = Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();

    @TempDir Path dir;

    private static String tail(Path log) throws java.io.IOException {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of("(none)");
        return String.join("\n", lines);
    }

    @Test
    void moreTricklingConnectionsThanDescriptorsStillLeaveAHookCallAnsweredAtOnce() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n " + DESCRIPTORS + " && exec \"$@\"", "limited"));
        command.addAll(new BatonCli(home, home).builder("serve", "--port", "0").command());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("serve.out").toFile()));
        builder.environment().put("BATON_HOME", home.toString());
        Process sidecar = builder.start();
        List<Socket> trickling = new ArrayList<>();
        try {
            Path endpoint = home.resolve("endpoint");
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !sidecar.isAlive()
                    || Files.exists(endpoint) && !Files.readString(endpoint).isBlank());
            assertThat(sidecar.isAlive()).as("the sidecar started").isTrue();
            int port = Integer.parseInt(Files.readString(endpoint).trim().replaceAll(".*:", ""));

            for (int i = 0; i < TRICKLING; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                OutputStream out = socket.getOutputStream();
                out.write("POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{\"se"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                trickling.add(socket);
            }
            Path payload = Files.writeString(dir.resolve("edit.json"), "{\"session_id\":\"agent-1\",\"transcript_path\":\""
                    + dir.resolve("t.jsonl") + "\",\"cwd\":\"" + dir + "\",\"hook_event_name\":\"PreToolUse\","
                    + "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"" + dir.resolve("notes.txt")
                    + "\",\"content\":\"x\"}}");

            ProcessBuilder hook = new ProcessBuilder(SCRIPT.toString(), "claude", "PreToolUse")
                    .redirectInput(payload.toFile()).redirectErrorStream(true);
            hook.environment().remove("BATON_FAIL_OPEN");
            hook.environment().put("BATON_HOME", home.toString());
            hook.environment().put("BATON_HOOK_TIMEOUT", "20");
            hook.environment().put("BATON_HOOK_START_TIMEOUT", "20");
            hook.environment().put("BATON_BIN", "/bin/false"); // this sidecar must answer: starting another is no way out
            long started = System.nanoTime();
            Process run = hook.start();
            assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the hook finished").isTrue();
            String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(run.exitValue()).as("%s; the end of sidecar.log: %s", output, tail(home.resolve("sidecar.log"))).isZero();
            assertThat(output).isEmpty();
            assertThat(took).as("answered well before the hook's own bound").isLessThan(Duration.ofSeconds(20));
            assertThat(sidecar.isAlive()).isTrue();
            assertThat(Files.readString(home.resolve("sidecar.log"))).doesNotContain("Too many open files");
        } finally {
            for (Socket socket : trickling) {
                socket.close();
            }
            sidecar.destroy();
            if (!sidecar.waitFor(30, TimeUnit.SECONDS)) {
                sidecar.destroyForcibly();
            }
        }
    }
}
