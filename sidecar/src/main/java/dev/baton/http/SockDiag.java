package dev.baton.http;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import dev.baton.home.BatonHome;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TCP socket as Linux's socket diagnostics ({@code NETLINK_SOCK_DIAG}, what {@code ss} uses) report it, asked
 * for by its exact addresses and ports: the kernel looks it up in its connection hash, where reading
 * {@code /proc/net/tcp} makes it print every bucket of that hash. Java 17 cannot open an {@code AF_NETLINK}
 * socket, so the four C calls go through JNA (a well-kept library that loads its one native part itself) rather
 * than JNI code of our own to build for each platform. JNA is loaded by {@link #ready()}, which a started sidecar
 * calls once it serves, or else by the first question.
 */
final class SockDiag {

    /** The client's socket: its inode (what {@code /proc/PID/fd} links name) and its owner's uid. */
    record Socket(long inode, long uid) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(SockDiag.class);

    // linux/netlink.h, linux/sock_diag.h, linux/inet_diag.h, sys/socket.h
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int AF_NETLINK = 16;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int NETLINK_SOCK_DIAG = 4;
    private static final int IPPROTO_TCP = 6;
    private static final int SOCK_DIAG_BY_FAMILY = 20;
    private static final int NLM_F_REQUEST = 1;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int HEADER = 16; // struct nlmsghdr
    private static final int REQUEST = HEADER + 56; // + struct inet_diag_req_v2
    private static final int REPLY = HEADER + 72; // + struct inet_diag_msg, before its attributes
    private static final byte[] KERNEL = ByteBuffer.allocate(12).order(ByteOrder.nativeOrder())
            .putShort((short) AF_NETLINK).array(); // struct sockaddr_nl: port id 0 is the kernel

    private SockDiag() {
    }

    /**
     * The socket from {@code client} to {@code server}, or empty when the kernel does not name one with an inode:
     * no such connection (closed, or in TIME_WAIT), or no answer at all (not Linux, JNA cannot load, netlink
     * refused). The caller cannot tell these apart, and reads the tables where it must be sure.
     */
    static Optional<Socket> find(InetSocketAddress client, InetSocketAddress server) {
        if (!Kernel.AVAILABLE) {
            return Optional.empty();
        }
        InetAddress from = client.getAddress();
        InetAddress to = server.getAddress();
        if (from instanceof Inet4Address && to instanceof Inet4Address) {
            // bash's /dev/tcp socket is IPv4; a Java client's dual-stack socket is IPv6 with mapped addresses.
            Optional<Socket> found = ask(AF_INET, from.getAddress(), client.getPort(), to.getAddress(), server.getPort());
            return found.isPresent() ? found
                    : ask(AF_INET6, mapped(from), client.getPort(), mapped(to), server.getPort());
        }
        if (from instanceof Inet6Address && to instanceof Inet6Address) {
            return ask(AF_INET6, from.getAddress(), client.getPort(), to.getAddress(), server.getPort());
        }
        return Optional.empty();
    }

    /** Binds the C calls now (JNA's loading), as the first {@link #find} would; whether the kernel can be asked. */
    static boolean ready() {
        return Kernel.AVAILABLE;
    }

    /** An exact lookup (no {@code NLM_F_DUMP}): one {@code inet_diag_req_v2}, one {@code inet_diag_msg} back. */
    private static Optional<Socket> ask(int family, byte[] source, int sourcePort, byte[] destination, int destinationPort) {
        ByteBuffer request = ByteBuffer.allocate(REQUEST).order(ByteOrder.nativeOrder());
        request.putInt(REQUEST).putShort((short) SOCK_DIAG_BY_FAMILY).putShort((short) NLM_F_REQUEST).putInt(1).putInt(0);
        request.put((byte) family).put((byte) IPPROTO_TCP).put((byte) 0).put((byte) 0).putInt(-1); // every state
        // struct inet_diag_sockid: ports and addresses in network order, then the interface and the cookie
        request.order(ByteOrder.BIG_ENDIAN).putShort((short) sourcePort).putShort((short) destinationPort);
        request.put(source).position(request.position() + 16 - source.length);
        request.put(destination).position(request.position() + 16 - destination.length);
        request.putInt(0).putInt(-1).putInt(-1); // any interface, INET_DIAG_NOCOOKIE
        byte[] reply = new byte[4096];
        long read;
        int fd;
        try {
            fd = Kernel.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
        } catch (LastErrorException refused) {
            return Optional.empty();
        }
        try {
            Kernel.sendto(fd, request.array(), new NativeLong(REQUEST), 0, KERNEL, KERNEL.length);
            // The kernel answers within sendto, so the reply is queued already: never wait for one.
            read = Kernel.recv(fd, reply, new NativeLong(reply.length), MSG_DONTWAIT).longValue();
        } catch (LastErrorException failed) {
            return Optional.empty();
        } finally {
            Kernel.close(fd);
        }
        ByteBuffer answer = ByteBuffer.wrap(reply).order(ByteOrder.nativeOrder());
        // An NLMSG_ERROR (ENOENT: no such socket) or anything shorter than one socket's message names nothing.
        if (read < REPLY || answer.getShort(4) != SOCK_DIAG_BY_FAMILY) {
            return Optional.empty();
        }
        long uid = Integer.toUnsignedLong(answer.getInt(HEADER + 64));
        long inode = Integer.toUnsignedLong(answer.getInt(HEADER + 68));
        return inode == 0 ? Optional.empty() : Optional.of(new Socket(inode, uid)); // TIME_WAIT: no inode
    }

    private static byte[] mapped(InetAddress v4) {
        byte[] address = new byte[16];
        address[10] = (byte) 0xff;
        address[11] = (byte) 0xff;
        System.arraycopy(v4.getAddress(), 0, address, 12, 4);
        return address;
    }

    /**
     * The C library's calls, bound on first use. JNA unpacks its native part before loading it, by default to
     * {@code ~/.cache/JNA/temp} or, where that is not writable, the shared temporary directory; here it goes to
     * the private home instead (see {@link BatonHome#nativeLibraries()}), and the system's library path is not
     * searched for another copy.
     */
    private static final class Kernel {

        static final boolean AVAILABLE = bind();

        static native int socket(int domain, int type, int protocol) throws LastErrorException;

        static native NativeLong sendto(int fd, byte[] buffer, NativeLong length, int flags, byte[] address,
                int addressLength) throws LastErrorException;

        static native NativeLong recv(int fd, byte[] buffer, NativeLong length, int flags) throws LastErrorException;

        static native int close(int fd);

        private static boolean bind() {
            if (!System.getProperty("os.name", "").startsWith("Linux")) {
                return false;
            }
            Path unpacked = null;
            try {
                unpacked = unpackDirectory();
                if (System.getProperty("jna.tmpdir") == null) {
                    System.setProperty("jna.tmpdir", unpacked.toString());
                }
                System.setProperty("jna.nosys", "true");
                long started = System.nanoTime();
                // The JVM's own process already has the C library loaded: no library file is looked up by name.
                Native.register(Kernel.class, NativeLibrary.getProcess());
                LOG.debug("JNA {} loaded in {} ms", Native.VERSION, (System.nanoTime() - started) / 1_000_000);
                return true;
            } catch (IOException | LinkageError | RuntimeException e) {
                LOG.info("asking the kernel for one socket is unavailable ({}); reading /proc/net/tcp instead", e.toString());
                return false;
            } finally {
                if (unpacked != null) {
                    try {
                        Files.deleteIfExists(unpacked); // JNA deleted the library once loaded; gone if it is empty
                    } catch (IOException notEmpty) {
                        // a library JNA could not delete stays in the private directory
                    }
                }
            }
        }

        /** The home's directory where it is the private one the sidecar serves from, else a fresh private one. */
        private static Path unpackDirectory() throws IOException {
            BatonHome home = BatonHome.fromEnvironment(System.getenv());
            if (Files.isDirectory(home.dir())) {
                try {
                    home.requirePrivate();
                    return home.nativeLibraries();
                } catch (IOException notPrivate) {
                    // fall through: a directory of the sidecar's own
                }
            }
            return Files.createTempDirectory("baton-native"); // 0700, made by this process
        }
    }
}
