package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.home.BatonHome;
import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import dev.baton.support.OtherUser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a sidecar crash its endpoint file remains; another user binds that port. The hook and the CLI must not
 * send that listener the token (or an edit's payload): a listener that is not this home's sidecar is "not running".
 */
class EndpointSquattingTest {

    private static final Path SCRIPT = Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();

    @TempDir Path dir;

    @Test
    void theHookAndTheCliSendNothingToAnotherUsersListenerOnALeftoverEndpoint() throws Exception {
        Path homeDir = Files.createDirectory(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        BatonHome home = new BatonHome(homeDir);
        home.ensureToken();
        try (OtherUser.Listener squatter = OtherUser.listen(); ChildProcess ours = ChildProcess.sleeping()) {
            int port = squatter.port();
            home.writeEndpoint(port);
            // The crashed sidecar's pid is reused by a live process of ours: only the listening socket tells them apart.
            home.writePid(ours.pid());

            ProcessBuilder run = new ProcessBuilder(SCRIPT.toString(), "claude", "PreToolUse").redirectErrorStream(true);
            run.environment().put("BATON_HOME", homeDir.toString());
            run.environment().put("BATON_HOOK_TIMEOUT", "5");
            run.environment().put("BATON_HOOK_START_TIMEOUT", "5");
            run.environment().put("BATON_BIN", "/bin/false"); // nothing to start: the sidecar stays "not running"
            run.environment().remove("BATON_FAIL_OPEN");
            Process hook = run.start();
            try (OutputStream in = hook.getOutputStream()) {
                in.write("{\"session_id\":\"s\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/tmp/x\",\"content\":\"secret\"}}"
                        .getBytes(StandardCharsets.UTF_8));
            }
            assertThat(hook.waitFor(60, TimeUnit.SECONDS)).isTrue();
            BatonCli.Result cli = new BatonCli(homeDir, dir).run("locks");

            try (Socket sentinel = new Socket("127.0.0.1", port)) {
                sentinel.getOutputStream().write("SENTINEL\n".getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(squatter.nextHeard()).as("the first thing the squatter heard").isEqualTo("got: SENTINEL");
            assertThat(hook.exitValue()).isEqualTo(2);
            assertThat(cli.exit()).isEqualTo(2);
            assertThat(cli.err()).contains("no sidecar is running");
        }
    }

    @Test
    void watchSendsNoTokenToAListenerOfTheSameUserThatIsNotTheSidecar() throws Exception {
        Path homeDir = Files.createDirectory(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        BatonHome home = new BatonHome(homeDir);
        home.ensureToken();
        try (ServerSocket squatter = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             ChildProcess ours = ChildProcess.sleeping()) {
            home.writeEndpoint(squatter.getLocalPort());
            home.writePid(ours.pid()); // alive and ours, but not the process holding the socket

            BatonCli.Result watch = new BatonCli(homeDir, dir).run("watch", "--count", "1");

            try (Socket sentinel = new Socket(InetAddress.getLoopbackAddress(), squatter.getLocalPort())) {
                sentinel.getOutputStream().write("SENTINEL\n".getBytes(StandardCharsets.US_ASCII));
                sentinel.getOutputStream().flush();
                try (Socket first = squatter.accept()) {
                    String heard = new BufferedReader(new InputStreamReader(first.getInputStream(), StandardCharsets.UTF_8))
                            .readLine();
                    assertThat(heard).as("the first thing the listener heard").isEqualTo("SENTINEL");
                }
            }
            assertThat(watch.exit()).isEqualTo(2);
            assertThat(watch.err()).contains("no sidecar is running").contains("is not the sidecar's");
        }
    }

}
