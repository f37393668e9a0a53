package dev.baton.http;

import dev.baton.session.ConnectionPeer;
import dev.baton.session.ProcStat;
import dev.baton.session.ProcessIdentity;
import io.javalin.http.Context;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.LongStream;

/**
 * The process at the other end of a loopback TCP connection, from Linux's own view: the kernel names the client's
 * socket by its inode (asked for that one socket over netlink, see {@link SockDiag}; else found by the client's
 * port in {@code /proc/net/tcp} and {@code tcp6}), and the process holding that inode in {@code /proc/PID/fd} is
 * the caller. No library exposes this (the JDK gives the peer's port, not its process), hence the hand-written reads.
 */
public final class LoopbackPeer implements ConnectionPeer {

    private static final Path PROC = Path.of("/proc");
    private static final List<Path> TABLES = List.of(PROC.resolve("net/tcp"), PROC.resolve("net/tcp6"));
    private static final String ATTRIBUTE = "baton.peer";
    /** Whether the kernel can be asked at all (Linux); it does not change while the sidecar runs. */
    private static final boolean KERNEL_TABLES = Files.isReadable(TABLES.get(0));

    private final InetSocketAddress client;
    private final InetSocketAddress server;
    private final boolean askKernel;
    private Optional<ProcessIdentity> found;

    /**
     * @param askKernel whether to ask the kernel for the one socket before reading the whole tables (false: the
     *                  tables alone, as where netlink cannot be opened)
     */
    LoopbackPeer(InetSocketAddress client, InetSocketAddress server, boolean askKernel) {
        this.client = client;
        this.server = server;
        this.askKernel = askKernel;
    }

    /**
     * Loads now what the first lookup would load (JNA, 40–100 ms), so that the first hook call after a start does not
     * wait for it: a sidecar started for an edit is asked about that edit's connection at once.
     */
    public static void prepare() {
        if (KERNEL_TABLES) {
            SockDiag.ready();
        }
    }

    /** The peer of the request's connection, looked up at most once per request. */
    static ConnectionPeer of(Context ctx) {
        ConnectionPeer peer = ctx.attribute(ATTRIBUTE);
        if (peer == null) {
            peer = KERNEL_TABLES ? new LoopbackPeer(address(ctx.req().getRemoteAddr(), ctx.req().getRemotePort()),
                    address(ctx.req().getLocalAddr(), ctx.req().getLocalPort()), true) : ConnectionPeer.UNKNOWN;
            ctx.attribute(ATTRIBUTE, peer);
        }
        return peer;
    }

    @Override
    public synchronized Optional<ProcessIdentity> find(LongStream hints) {
        if (found == null || found.isEmpty()) {
            found = lookUp(hints);
        }
        return found;
    }

    /**
     * A socket that no process holds has no inode (the kernel keeps a closed one for a while, orphaned, with inode 0),
     * so neither the kernel's answer nor the tables name one for the client's end once the client closed it.
     */
    @Override
    public boolean closed() {
        return socketInode().isEmpty();
    }

    private Optional<ProcessIdentity> lookUp(LongStream hints) {
        OptionalLong inode = socketInode();
        if (inode.isEmpty()) {
            return Optional.empty();
        }
        String link = "socket:[" + inode.getAsLong() + "]";
        OptionalLong holder = hints.filter(pid -> holds(pid, link)).findFirst();
        if (holder.isEmpty()) {
            holder = everyProcess().filter(pid -> holds(pid, link)).findFirst();
        }
        if (holder.isEmpty()) {
            return Optional.empty();
        }
        Optional<Instant> started = ProcStat.available()
                ? ProcStat.of(holder.getAsLong()).filter(stat -> !stat.exited()).map(ProcStat::started)
                : ProcessHandle.of(holder.getAsLong()).flatMap(handle -> handle.info().startInstant());
        // Checked again after reading the start instant, so a pid reused in between is not taken for the holder.
        if (started.isEmpty() || !holds(holder.getAsLong(), link)) {
            return Optional.empty();
        }
        return Optional.of(new ProcessIdentity(holder.getAsLong(), started.get()));
    }

    /**
     * An address as the servlet API gives it, an IP literal (IPv6 perhaps in brackets); unresolved when it is not
     * one, so no name is ever looked up.
     */
    private static InetSocketAddress address(String literal, int port) {
        String host = literal == null ? "" : literal.startsWith("[") && literal.endsWith("]")
                ? literal.substring(1, literal.length() - 1) : literal;
        if (host.contains(":") || (!host.isEmpty() && host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9')))) {
            try {
                return new InetSocketAddress(InetAddress.getByName(host), port);
            } catch (UnknownHostException notALiteral) {
                // below
            }
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    /** The inode of the client's socket: the kernel's answer for it, or its row in the tables. */
    OptionalLong socketInode() {
        if (askKernel && !client.isUnresolved() && !server.isUnresolved()) {
            Optional<SockDiag.Socket> socket = SockDiag.find(client, server);
            if (socket.isPresent()) {
                return OptionalLong.of(socket.get().inode());
            }
        }
        return tableInode();
    }

    /** The inode of the client's socket in the tables: local port = the client's, remote port = ours. */
    private OptionalLong tableInode() {
        for (Path table : TABLES) {
            try {
                OptionalLong inode = inodeOf(new String(Files.readAllBytes(table), StandardCharsets.ISO_8859_1),
                        client.getPort(), server.getPort());
                if (inode.isPresent()) {
                    return inode;
                }
            } catch (IOException e) {
                // a table that is absent (no IPv6) or unreadable does not hold it
            }
        }
        return OptionalLong.empty();
    }

    /**
     * The inode of the socket from local port {@code localPort} to remote port {@code remotePort} in the text of a
     * {@code /proc/net/tcp} or {@code tcp6} table. Fields are split by hand, not with a regular expression: this runs
     * on every hook call, and a table has a line per socket of the machine.
     */
    static OptionalLong inodeOf(String table, int localPort, int remotePort) {
        int[] starts = new int[10];
        int[] ends = new int[10];
        int line = table.indexOf('\n') + 1; // the first line names the columns
        while (line > 0 && line < table.length()) {
            int next = table.indexOf('\n', line);
            int end = next < 0 ? table.length() : next;
            if (fields(table, line, end, starts, ends) == 10
                    && port(table, starts[1], ends[1]) == localPort && port(table, starts[2], ends[2]) == remotePort) {
                long inode = number(table, starts[9], ends[9]);
                if (inode > 0) {
                    return OptionalLong.of(inode);
                }
            }
            line = end + 1;
        }
        return OptionalLong.empty();
    }

    /** Splits {@code text[from, to)} on spaces into at most 10 fields; answers how many were found. */
    private static int fields(String text, int from, int to, int[] starts, int[] ends) {
        int count = 0;
        int i = from;
        while (count < 10) {
            while (i < to && text.charAt(i) == ' ') {
                i++;
            }
            if (i >= to) {
                break;
            }
            starts[count] = i;
            while (i < to && text.charAt(i) != ' ') {
                i++;
            }
            ends[count++] = i;
        }
        return count;
    }

    /** The hexadecimal port after the last colon of an {@code ADDRESS:PORT} field, or -1. */
    private static int port(String text, int from, int to) {
        int colon = text.lastIndexOf(':', to - 1);
        if (colon < from || to - colon - 1 < 1 || to - colon - 1 > 4) {
            return -1;
        }
        int port = 0;
        for (int i = colon + 1; i < to; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            port = port * 16 + digit;
        }
        return port;
    }

    /** A decimal field, or -1. */
    private static long number(String text, int from, int to) {
        if (to - from < 1 || to - from > 18) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * True when process {@code pid} holds the socket listening on 127.0.0.1:{@code port}, as the kernel lists it;
     * also true where the kernel cannot be asked (not Linux), since nothing better can be checked there.
     */
    public static boolean listensOn(long pid, int port) {
        if (!KERNEL_TABLES) {
            return true;
        }
        for (Path table : TABLES) {
            try {
                for (String line : Files.readAllLines(table)) {
                    String[] fields = line.trim().split("\\s+");
                    if (fields.length > 9 && fields[3].equals("0A") && port(fields[1]) == port
                            && holds(pid, "socket:[" + fields[9] + "]")) {
                        return true;
                    }
                }
            } catch (IOException e) {
                // a table that is absent (no IPv6) or unreadable does not hold it
            }
        }
        return false;
    }

    private static int port(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(address.substring(colon + 1), 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean holds(long pid, String link) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("fd"))) {
            for (Path fd : fds) {
                try {
                    if (link.equals(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor closed while we looked
                }
            }
        } catch (IOException | SecurityException gone) {
            // the process exited, or belongs to another user
        }
        return false;
    }

    private static LongStream everyProcess() {
        return ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid);
    }
}
