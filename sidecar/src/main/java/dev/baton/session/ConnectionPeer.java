package dev.baton.session;

import java.util.Optional;
import java.util.stream.LongStream;

/**
 * The process that holds the caller's end of a connection, as the kernel reports it; never what the caller says.
 * Where the kernel cannot tell (not Linux), it finds nothing, and only a session key counts as proof.
 */
public interface ConnectionPeer {

    /** A peer that is never found: the connection is not one the kernel can be asked about. */
    ConnectionPeer UNKNOWN = hints -> Optional.empty();

    /**
     * The process holding the connection's client socket, with its start instant, or empty. {@code hints} are
     * pids to look at first (cheap when one of them is it); the answer never depends on them.
     */
    Optional<ProcessIdentity> find(LongStream hints);

    /**
     * True when the kernel shows that no process holds the client's end of the connection any more: the caller gave
     * up on it (closed it, or exited) before the answer. False where the kernel cannot tell.
     */
    default boolean closed() {
        return false;
    }
}
