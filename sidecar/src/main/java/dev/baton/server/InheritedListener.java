package dev.baton.server;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ServerSocketChannel;
import java.util.Optional;

/**
 * The listening socket a service manager hands the sidecar on its standard input (systemd's socket activation with
 * {@code StandardInput=socket}): served instead of binding a port, so the first connection waits in the kernel's
 * queue while the JVM starts rather than being refused.
 */
public final class InheritedListener {

    private InheritedListener() {
    }

    /**
     * The inherited listening socket, when standard input is one; empty for anything else (a terminal, a pipe,
     * /dev/null, a connected socket). A listener not bound to 127.0.0.1 is refused: Baton's token-guarded API must
     * not be reachable from other machines, whatever the unit file says.
     */
    public static Optional<ServerSocketChannel> find() throws IOException {
        Channel inherited = System.inheritedChannel();
        if (!(inherited instanceof ServerSocketChannel listener)) {
            return Optional.empty();
        }
        SocketAddress address = listener.getLocalAddress();
        if (address instanceof InetSocketAddress inet && inet.getAddress() instanceof Inet4Address v4
                && v4.getHostAddress().equals("127.0.0.1") && inet.getPort() > 0) {
            return Optional.of(listener);
        }
        // Not closed here: closing an inherited channel points the JVM's stdin, stdout and stderr at /dev/null
        // (the JDK assumes they are the socket, as under inetd), which would swallow this message.
        throw new IOException("the listening socket handed over on standard input is bound to " + describe(address)
                + ", not to 127.0.0.1; Baton serves on 127.0.0.1 only. Make the socket unit listen on 127.0.0.1:PORT"
                + " (`baton service install` writes it so), or start `baton serve` without a socket on its input");
    }

    private static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress().getHostAddress() + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
