package dev.baton.http;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.channels.SelectableChannel;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SelectableChannelEndPoint;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.util.IO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;

/**
 * Keeps the open connections below what the sidecar's file descriptors allow, so that it never stops accepting:
 * a sidecar out of descriptors leaves new connections in the kernel's queue, where a hook's connect waits until the
 * queue is full and then until it gives up. The count starts at the accept itself (before Jetty makes a connection of
 * the socket, which a burst outruns). When a new connection passes the cap, the oldest connection that is not being
 * answered (idle, or still sending its request: a slow or stalled client) is closed to make room, else the oldest
 * socket Jetty has not caught up with yet; when every one is being answered, the new one is closed at once, and its
 * client sees that rather than a wait. A request that arrived
 * whole is never dropped, so hook calls, which send theirs at once, are answered while clients that trickle lose
 * their connections. Event streams (upgraded connections) are never closed for room.
 */
final class ConnectionCap implements Connection.Listener, SelectorManager.AcceptListener {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionCap.class);

    /** Connections kept at most, whatever the descriptor limit: each holds buffers, and agents need a few dozen. */
    static final int DEFAULT_MAX = 4096;
    /**
     * Descriptors kept free of connections beyond those open when the cap is set: the database's files opened later,
     * the git processes the shell checks run, a log rolled over.
     */
    static final int RESERVE = 128;
    /** Descriptors that must stay free whatever the count of connections says. */
    static final int MIN_FREE_DESCRIPTORS = 48;

    private final int cap;
    /** Sockets accepted that Jetty has not made a connection of yet. */
    private final Set<SelectableChannel> accepted = new LinkedHashSet<>();
    private final Map<Connection, Open> open = new ConcurrentHashMap<>();
    private long refusals;

    private static final class Open {
        final long openedAt = System.nanoTime();
        final AtomicInteger answering = new AtomicInteger();
    }

    ConnectionCap(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("the connection cap must be at least 1, was " + cap);
        }
        this.cap = cap;
    }

    /**
     * The cap for this process: {@link #DEFAULT_MAX}, or less where the descriptor limit leaves less room beside the
     * descriptors open now (the JVM's own, its jars, the database) and a reserve.
     */
    static ConnectionCap forThisProcess() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof com.sun.management.UnixOperatingSystemMXBean unix)) {
            return new ConnectionCap(DEFAULT_MAX);
        }
        long room = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount()
                - Math.max(RESERVE, unix.getMaxFileDescriptorCount() / 8);
        return new ConnectionCap((int) Math.max(16, Math.min(DEFAULT_MAX, room)));
    }

    int cap() {
        return cap;
    }

    private static long descriptorsLeft() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix
                ? unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount() : Long.MAX_VALUE;
    }

    /**
     * Called by Jetty right after a socket is accepted, before anything is made of it. Past half the cap, the
     * descriptors the process has left are counted too: other descriptors (classes loaded from more jars, the
     * database's, git's pipes) may have grown into the room the cap assumed.
     */
    @Override
    public synchronized void onAccepting(SelectableChannel channel) {
        accepted.add(channel);
        while (accepted.size() + open.size() > cap
                || accepted.size() + open.size() > cap / 2 && descriptorsLeft() < MIN_FREE_DESCRIPTORS) {
            if (!closeOldestIdle() && !closeOldestAccepted(channel)) {
                accepted.remove(channel);
                IO.close(channel); // Jetty reports the failed accept next: onAcceptFailed
                if (refusals++ % 1000 == 0) {
                    LOG.warn("refused a connection at the cap of {}: {} connections are being answered ({} refused"
                            + " since the start)", cap, open.size(), refusals);
                }
                return;
            }
        }
    }

    @Override
    public synchronized void onAcceptFailed(SelectableChannel channel, Throwable cause) {
        accepted.remove(channel);
    }

    @Override
    public synchronized void onOpened(Connection connection) {
        if (connection.getEndPoint() instanceof SelectableChannelEndPoint endPoint) {
            accepted.remove(endPoint.getChannel());
        }
        open.put(connection, new Open());
    }

    @Override
    public synchronized void onClosed(Connection connection) {
        open.remove(connection);
    }

    /**
     * Closes the oldest socket accepted that Jetty has not made a connection of yet, other than {@code newcomer}: in
     * a burst the selector lags behind the accepts, and of sockets nothing is known of yet, the oldest goes, so the
     * newest (an agent's call that came after a flood) is kept. False when there is none.
     */
    private boolean closeOldestAccepted(SelectableChannel newcomer) {
        for (SelectableChannel channel : accepted) {
            if (channel != newcomer) {
                accepted.remove(channel);
                IO.close(channel);
                return true;
            }
        }
        return false;
    }

    /** Closes the oldest connection that is not answering a request; false when there is none. */
    private boolean closeOldestIdle() {
        Connection oldest = null;
        long oldestAt = Long.MAX_VALUE;
        for (Map.Entry<Connection, Open> entry : open.entrySet()) {
            Connection candidate = entry.getKey();
            Open state = entry.getValue();
            if (candidate instanceof HttpConnection && state.answering.get() == 0 && state.openedAt < oldestAt) {
                oldest = candidate;
                oldestAt = state.openedAt;
            }
        }
        if (oldest == null) {
            return false;
        }
        open.remove(oldest);
        // The socket itself first: Jetty closes an endpoint on its selector's thread, later, and an accept burst would
        // meanwhile take the descriptors this close is meant to free.
        if (oldest.getEndPoint() instanceof SelectableChannelEndPoint endPoint) {
            IO.close(endPoint.getChannel());
        }
        oldest.getEndPoint().close();
        return true;
    }

    /**
     * The handler that marks a connection as answering while a request of it is handled. It goes after the body is
     * read whole (EagerContentHandler), so a client still sending its body counts as not answered yet.
     */
    Handler.Wrapper answering() {
        return new Handler.Wrapper() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Open state = open.get(request.getConnectionMetaData().getConnection());
                if (state == null) {
                    return super.handle(request, response, callback);
                }
                state.answering.incrementAndGet();
                Callback done = Callback.from(callback, state.answering::decrementAndGet);
                boolean handled;
                try {
                    handled = super.handle(request, response, done);
                } catch (Exception | Error e) {
                    state.answering.decrementAndGet();
                    throw e;
                }
                if (!handled) {
                    state.answering.decrementAndGet();
                }
                return handled;
            }
        };
    }
}
