package dev.baton.session;

import java.time.Instant;

/**
 * How a caller shows it acts for a session: the key issued at registration, or (for the CLI run
 * from the agent's shell) the caller's own process, of which the agent's process must be an ancestor.
 */
public sealed interface SessionProof permits SessionProof.Key, SessionProof.Descendant {

    record Key(String key) implements SessionProof {
    }

    /** The calling process, by pid and start instant (so a reused pid is not taken for it). */
    record Descendant(long pid, Instant startedAt) implements SessionProof {
    }
}
