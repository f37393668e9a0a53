package dev.baton.session;

import dev.baton.state.BatonException;

/** The rules a session id must follow: agents send their own ids, so they are checked at the edge. */
public final class SessionIds {

    public static final int MAX_LENGTH = 200;

    private SessionIds() {
    }

    public static String requireValid(String id) {
        if (id == null || id.isBlank()) {
            throw BatonException.invalid("session id is empty");
        }
        if (id.length() > MAX_LENGTH) {
            throw BatonException.invalid("session id is " + id.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isISOControl(c) || Character.isWhitespace(c)) {
                throw BatonException.invalid("session id may not contain whitespace or control characters");
            }
        }
        return id;
    }
}
