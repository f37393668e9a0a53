package dev.baton.message;

import java.time.Instant;

/**
 * One message between sessions. {@code recipient} is a session id, or {@link #EVERYONE} for a
 * broadcast, which every session that was running when it was sent may read.
 */
public record Message(long id, String senderId, String recipient, String text, Instant sentAt) {

    public static final String EVERYONE = "*";

    public boolean isBroadcast() {
        return EVERYONE.equals(recipient);
    }
}
