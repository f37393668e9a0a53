package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper's question to the sidecar is bounded by BATON_HOOK_TIMEOUT: a listener that accepts and never answers,
 * or one whose accept queue is full (a connect then waits in the kernel), cannot hold an agent's command; it runs as
 * it is. The listener is this test's own, registered in BATON_HOME as the sidecar (this JVM's pid in sidecar.pid), so
 * the wrapper's check that the endpoint is the sidecar's passes and the token goes out.
 */
class ShellWrapperBoundsTest {

    private static final Path WRAPPER = HookHarness.SCRIPT.resolveSibling("baton-shell");

    @TempDir
    Path dir;

    @Test
    void aSidecarThatNeverAnswersLetsTheCommandRunOnceTheBudgetIsSpent() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // kept open, never read, never answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();

            Run run = wrapped(registerAsSidecar(silent.getLocalPort()));

            assertThat(run.exit).isZero();
            assertThat(run.out).isEqualTo("ran\n");
        }
    }

    @Test
    void aSidecarWhoseAcceptQueueIsFullLetsTheCommandRunOnceTheBudgetIsSpent() throws Exception {
        try (ServerSocket full = new ServerSocket()) {
            full.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1); // never accepts
            List<Socket> filling = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) { // the kernel queues backlog + 1; further connects wait for room
                    Socket socket = new Socket();
                    try {
                        socket.connect(full.getLocalSocketAddress(), 300);
                        filling.add(socket);
                    } catch (IOException queueFull) {
                        socket.close();
                    }
                }

                Run run = wrapped(registerAsSidecar(full.getLocalPort()));

                assertThat(run.exit).isZero();
                assertThat(run.out).isEqualTo("ran\n");
            } finally {
                for (Socket socket : filling) {
                    socket.close();
                }
            }
        }
    }

    /** Answers the wrapper cannot use, or must not trust beyond what they say: each leaves the command to run. */
    static Stream<Arguments> malformedAnswers() {
        return Stream.of(
                Arguments.of("no header end", "HTTP/1.0 200 OK\r\nX-Baton-Guard: bind"),
                Arguments.of("not HTTP", "hello there\r\n\r\n"),
                Arguments.of("nothing at all", ""),
                Arguments.of("a server error", "HTTP/1.0 500 Server Error\r\nContent-Length: 4\r\n\r\noops"),
                Arguments.of("a body shorter than its length", "HTTP/1.0 200 OK\r\nX-Baton-Guard: bind\r\nX-Baton-Files: 1\r\n"
                        + "Content-Length: 400\r\n\r\n/etc/passwd\n"),
                Arguments.of("more files than lines", "HTTP/1.0 200 OK\r\nX-Baton-Guard: bind\r\nX-Baton-Files: 99999999999999999\r\n"
                        + "\r\n" + "/nonexistent/held.txt\nwhy"),
                Arguments.of("a run id of other characters", "HTTP/1.0 200 OK\r\nX-Baton-Guard: none\r\nX-Baton-Run: ../../x\r\n"
                        + "X-Baton-Files: 0\r\n\r\n"),
                Arguments.of("an unknown guard", "HTTP/1.1 200 OK\r\nX-Baton-Guard: \u00ff\u00fe\r\nX-Baton-Files: -3\r\n\r\n"),
                Arguments.of("an answer past the size limit", "HTTP/1.0 200 OK\r\nX-Baton-Files: 0\r\n\r\n" + "x".repeat(9 << 20)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedAnswers")
    void aMalformedAnswerLeavesTheCommandToRunAsItIs(String name, String answer) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept()) {
                        socket.getInputStream().readNBytes(socket.getInputStream().available());
                        socket.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
                    } catch (IOException closed) {
                        // the wrapper stopped reading an answer past its limit, or the test is over
                    }
                }
            });
            server.setDaemon(true);
            server.start();

            Run run = wrapped(registerAsSidecar(listener.getLocalPort()));

            assertThat(run.exit).as(name).isZero();
            assertThat(run.out).as(name).isEqualTo("ran\n");
        }
    }

    private Path registerAsSidecar(int port) throws IOException {
        BatonHome home = new BatonHome(Files.createDirectories(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        home.writeEndpoint(port);
        home.writePid(ProcessHandle.current().pid());
        home.ensureToken();
        return home.dir();
    }

    private record Run(int exit, String out) {
    }

    private Run wrapped(Path home) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(WRAPPER.toString(), "-c", "echo ran").directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("BATON_HOME", home.toString());
        builder.environment().put("BATON_HOOK_TIMEOUT", "1");
        builder.environment().remove("BATON_SHELL_GUARD");
        Process process = builder.start();
        try {
            // Far beyond the 1 s budget: the wrapper must have given up on the sidecar by then.
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the wrapper ended").isTrue();
            return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
        }
    }
}
