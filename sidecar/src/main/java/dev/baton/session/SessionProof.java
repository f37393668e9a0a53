package dev.baton.session;

/**
 * How a caller shows it acts for a session: the key issued at registration, or the connection itself, whose
 * process the sidecar finds through the kernel and checks descends from the session's agent process.
 */
public sealed interface SessionProof permits SessionProof.Key, SessionProof.Peer {

    record Key(String key) implements SessionProof {
    }

    /** The caller's connection; the process behind it is looked up only when the proof is checked. */
    record Peer(ConnectionPeer connection) implements SessionProof {
    }
}
