package dev.baton.lock;

import dev.baton.session.Session;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The lock space this sidecar shares with the sidecars of other machines (team mode). The local table stays the
 * authority among this machine's sessions; a file it would give out is first claimed here, and a file it already
 * gave out is checked here when the claim may have lapsed. {@link #LOCAL} shares nothing: one machine, as without
 * a team.
 */
public interface SharedLockSpace {

    SharedLockSpace LOCAL = new SharedLockSpace() {
        @Override
        public Map<String, Holder> claim(Session session, List<String> files) {
            return Map.of();
        }

        @Override
        public Map<String, Holder> lost(Session session, Collection<String> files) {
            return Map.of();
        }

        @Override
        public void unclaim(Collection<String> files) {
        }
    };

    /**
     * Claims files that are free on this machine for the session. Returns those another machine holds (or that may
     * not be taken now), each with its holder; every other file is the session's across machines.
     */
    Map<String, Holder> claim(Session session, List<String> files);

    /** Of files the session holds here, those another machine took meanwhile (this sidecar's lease lapsed), each with its new holder. */
    Map<String, Holder> lost(Session session, Collection<String> files);

    /** Gives back claims made by {@link #claim} that the local table did not keep (an all-or-nothing edit refused). */
    void unclaim(Collection<String> files);

    /**
     * Whether a file that is clean in its working tree may go back at the end of a turn; a team keeps one whose last
     * commit has not reached the shared remote. Called outside the ledger (it may run git).
     */
    default boolean mayRelease(String file) {
        return true;
    }

    /** Who on another machine holds the file, as last heard (no database round trip); empty when none is known. */
    default java.util.Optional<Holder> knownHolder(String file) {
        return java.util.Optional.empty();
    }

    /** What the session must hear at its next hook call about the shared space (unreachable, a conflict), once. */
    default List<String> takeNotices(String sessionId) {
        return List.of();
    }
}
