package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Finding a connection's socket in the kernel's TCP tables, as every hook call does. */
class LoopbackPeerTableTest {

    private static final String TABLE = String.join("\n",
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 0100007F:1D09 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4711 1 0000 100 0 0 10 0",
            "   1: 0100007F:D431 0100007F:1D09 01 00000000:00000000 00:00000000 00000000  1000        0 52817 1 0000 20 4 30 10 -1",
            "   2: 0100007F:1D09 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 52818 1 0000 20 4 30 10 -1",
            "   3: 0100007F:A000 0100007F:1D09 06 00000000:00000000 03:00001234 00000000     0        0 0 3 0000",
            "");

    @Test
    void theClientsSocketIsTheRowFromItsPortToOurs() {
        assertThat(LoopbackPeer.inodeOf(TABLE, 0xD431, 0x1D09)).hasValue(52817);
        assertThat(LoopbackPeer.inodeOf(TABLE, 0x1D09, 0xD431)).as("the server's end of it").hasValue(52818);
    }

    @Test
    void aSocketWithoutAnInodeOrAnotherPairOfPortsIsNotFound() {
        assertThat(LoopbackPeer.inodeOf(TABLE, 0xA000, 0x1D09)).as("TIME_WAIT: inode 0").isEmpty();
        assertThat(LoopbackPeer.inodeOf(TABLE, 0xD431, 0x1D0A)).isEmpty();
        assertThat(LoopbackPeer.inodeOf(TABLE.substring(0, TABLE.indexOf('\n')), 0xD431, 0x1D09)).as("header only").isEmpty();
        assertThat(LoopbackPeer.inodeOf("", 1, 2)).isEmpty();
        assertThat(LoopbackPeer.inodeOf("header\n   1: 0100007F:ZZZZ 0100007F:1D09 01 x x x 1000 0 52817", 0xD431, 0x1D09))
                .as("not a port").isEmpty();
    }

    @Test
    void aRealConnectionOfThisProcessIsFoundInTheKernelsTable() throws IOException {
        Path tcp = Path.of("/proc/net/tcp");
        Assumptions.assumeTrue(Files.isReadable(tcp), "no /proc/net/tcp (not Linux)");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                Socket client = new Socket(InetAddress.getByName("127.0.0.1"), server.getLocalPort());
                Socket accepted = server.accept()) {
            String table = new String(Files.readAllBytes(tcp), StandardCharsets.ISO_8859_1)
                    + new String(Files.readAllBytes(Path.of("/proc/net/tcp6")), StandardCharsets.ISO_8859_1);
            OptionalLong inode = LoopbackPeer.inodeOf(table, client.getLocalPort(), server.getLocalPort());

            assertThat(inode).isPresent();
            String link = "socket:[" + inode.getAsLong() + "]";
            try (var fds = Files.list(Path.of("/proc/self/fd"))) {
                assertThat(fds.map(fd -> {
                    try {
                        return Files.readSymbolicLink(fd).toString();
                    } catch (IOException closed) {
                        return "";
                    }
                })).contains(link);
            }
        }
    }
}
