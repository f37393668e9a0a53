package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registration;
import dev.baton.session.SessionProof;
import dev.baton.state.AuditEntry;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.store.SqliteStore;
import dev.baton.support.ChildProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call that acts for a session through its connection (the CLI's, MCP's) and is refused: audited as an
 * impersonation while its caller holds the connection, not once the caller gave up on it. The agent and the callers
 * are real processes, the connections real loopback ones, the database a real SQLite file.
 */
class GoneCallerAuditTest {

    @TempDir
    Path dir;

    private Baton baton;
    private ChildProcess agent;

    @BeforeEach
    void registerAnAgentsSession() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "no /proc/net/tcp (not Linux)");
        baton = new Baton(new SqliteStore(dir.resolve("baton.db")), Clock.systemUTC(), new OsProcessLiveness(),
                Duration.ofMinutes(30));
        agent = ChildProcess.sleeping();
        baton.sessions().register(new Registration("victim", ClaudeCodeDialect.KIND,
                ProcessIdentity.ofRunning(agent.pid()), null, null, null, null, null));
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
        if (baton != null) {
            baton.close();
        }
    }

    @Test
    void aCallerStillOnItsConnectionIsAuditedAndOneThatGaveUpIsNot() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            server.setSoTimeout(10_000); // a child that cannot connect fails the test rather than hanging it
            Process staying = connect(server);
            try (Socket stays = server.accept()) {
                Process leaving = connect(server);
                try (Socket leaves = server.accept()) {
                    say(leaves);
                    assertThat(leaving.waitFor()).isZero();

                    refused(peerOf(stays));
                    refused(peerOf(leaves));

                    assertThat(refusals()).singleElement()
                            .satisfies(entry -> assertThat(entry.actor()).isEqualTo("pid " + staying.pid()));
                } finally {
                    leaving.destroyForcibly();
                }
            } finally {
                staying.destroyForcibly();
            }
        }
    }

    private void refused(LoopbackPeer caller) {
        assertThatThrownBy(() -> baton.identity().verify("victim", new SessionProof.Peer(caller)))
                .isInstanceOfSatisfying(BatonException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHORIZED));
    }

    /** bash holding a connection to {@code server} until it reads a line from it (not a process the agent started). */
    private static Process connect(ServerSocket server) throws IOException {
        return new ProcessBuilder("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + server.getLocalPort()
                + " && IFS= read -r line <&3").redirectErrorStream(true).start();
    }

    private static LoopbackPeer peerOf(Socket accepted) {
        return new LoopbackPeer((InetSocketAddress) accepted.getRemoteSocketAddress(),
                (InetSocketAddress) accepted.getLocalSocketAddress(), true);
    }

    private static void say(Socket accepted) throws IOException {
        OutputStream out = accepted.getOutputStream();
        out.write("done\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private List<AuditEntry> refusals() {
        return baton.ledger().read(world -> baton.ledger().store().auditSince(0, 1000)).stream()
                .filter(entry -> entry.action().equals("impersonation-refused")).toList();
    }
}
