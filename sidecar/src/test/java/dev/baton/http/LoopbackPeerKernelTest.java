package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.session.ProcessIdentity;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client's socket of a real connection from a child process, asked of the kernel over netlink and found in the
 * {@code /proc/net/tcp} tables: both name the same socket, and the child as the process holding it.
 */
class LoopbackPeerKernelTest {

    @BeforeAll
    static void linuxOnly() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "no /proc/net/tcp (not Linux)");
    }

    @Test
    void theKernelNamesTheSameIpv4SocketAsTheTablesAndItsHolderIsTheChild() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            connectedChildNamedBothWays(server, "127.0.0.1");
        }
    }

    @Test
    void theKernelNamesTheSameIpv6SocketAsTheTablesAndItsHolderIsTheChild() throws Exception {
        ServerSocket server;
        try {
            server = new ServerSocket(0, 1, InetAddress.getByName("::1"));
        } catch (IOException noIpv6) {
            Assumptions.abort("no IPv6 loopback here: " + noIpv6.getMessage());
            return;
        }
        try (server) {
            connectedChildNamedBothWays(server, "::1");
        }
    }

    @Test
    void aConnectionWhoseClientHasClosedItNamesNoProcessEitherWayAndIsClosed() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Process child = child(server, "127.0.0.1");
            try (Socket accepted = server.accept()) {
                InetSocketAddress client = (InetSocketAddress) accepted.getRemoteSocketAddress();
                InetSocketAddress local = (InetSocketAddress) accepted.getLocalSocketAddress();
                answer(accepted);
                assertThat(child.waitFor()).isZero();

                assertThat(SockDiag.find(client, local)).as("the kernel's answer").isEmpty();
                assertThat(new LoopbackPeer(client, local, true).find(LongStream.of(child.pid()))).isEmpty();
                assertThat(new LoopbackPeer(client, local, false).find(LongStream.of(child.pid()))).isEmpty();
                assertThat(new LoopbackPeer(client, local, true).closed()).as("closed, asked of the kernel").isTrue();
                assertThat(new LoopbackPeer(client, local, false).closed()).as("closed, from the tables").isTrue();
            } finally {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void aConnectionNeverMadeIsNotFoundByTheKernel() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            InetSocketAddress local = (InetSocketAddress) server.getLocalSocketAddress();
            InetSocketAddress nobody = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 1);

            assertThat(SockDiag.find(nobody, local)).isEmpty();
        }
    }

    /** A child (bash, as the hook script) connected to {@code server}, named by the kernel and by the tables. */
    private static void connectedChildNamedBothWays(ServerSocket server, String host) throws Exception {
        Process child = child(server, host);
        try (Socket accepted = server.accept()) {
            InetSocketAddress client = (InetSocketAddress) accepted.getRemoteSocketAddress();
            InetSocketAddress local = (InetSocketAddress) accepted.getLocalSocketAddress();

            Optional<SockDiag.Socket> asked = SockDiag.find(client, local);
            assertThat(asked).as("the kernel's answer for %s -> %s", client, local).isPresent();
            assertThat(asked.get().uid()).isEqualTo(((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue());
            assertThat(new LoopbackPeer(client, local, false).socketInode()).as("the tables' row")
                    .hasValue(asked.get().inode());

            Optional<ProcessIdentity> named = new LoopbackPeer(client, local, true).find(LongStream.empty());
            Optional<ProcessIdentity> fromTables = new LoopbackPeer(client, local, false).find(LongStream.of(child.pid()));
            assertThat(named).map(ProcessIdentity::pid).hasValue(child.pid());
            assertThat(fromTables).isEqualTo(named);
            assertThat(new LoopbackPeer(client, local, true).closed()).isFalse();
            assertThat(new LoopbackPeer(client, local, false).closed()).isFalse();
            answer(accepted);
            assertThat(child.waitFor()).isZero();
        } finally {
            child.destroyForcibly();
        }
    }

    /** bash holding a connection to {@code server} on descriptor 3 until it reads a line from it. */
    private static Process child(ServerSocket server, String host) throws IOException {
        server.setSoTimeout(10_000); // a child that cannot connect fails the test rather than hanging it
        return new ProcessBuilder("bash", "-c",
                "exec 3<>/dev/tcp/" + host + "/" + server.getLocalPort() + " && IFS= read -r line <&3")
                .redirectErrorStream(true).start();
    }

    private static void answer(Socket accepted) throws IOException {
        OutputStream out = accepted.getOutputStream();
        out.write("done\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
