package dev.baton.message;

import dev.baton.session.Session;
import java.util.Optional;

/**
 * The sessions of other machines of a team, for messages to them: a message to a session this sidecar does not know
 * is relayed, and reaches it at its next hook call on its own machine. {@link #NONE} knows no other machine.
 */
public interface MessageRelay {

    MessageRelay NONE = new MessageRelay() {
        @Override
        public Optional<String> remoteSession(String to) {
            return Optional.empty();
        }

        @Override
        public void relay(Session sender, String recipient, String text) {
            throw new IllegalStateException("no other machine to relay to");
        }
    };

    /** The session of another machine that {@code to} names (its id or the unique start of one), as {@code MACHINE/ID}. */
    Optional<String> remoteSession(String to);

    /** Sends {@code text} to {@code recipient} ({@code MACHINE/ID}, from {@link #remoteSession}). */
    void relay(Session sender, String recipient, String text);

    /**
     * Sends a broadcast to the sessions of every other machine; false when it could not go out now (the broadcast
     * still reached this machine's sessions).
     */
    default boolean broadcast(Session sender, String text) {
        return true;
    }
}
