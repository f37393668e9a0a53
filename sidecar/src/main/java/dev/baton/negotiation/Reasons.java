package dev.baton.negotiation;

import dev.baton.state.BatonException;

/** The reasons parties give each other: one stripped line or paragraph, bounded, never blank where one is needed. */
final class Reasons {

    static final int MAX_LENGTH = 500;

    private Reasons() {
    }

    static String require(String reason, String hint) {
        if (reason == null || reason.isBlank()) {
            throw BatonException.invalid("the reason is empty; " + hint);
        }
        return checkLength(reason.strip());
    }

    static String optional(String reason) {
        return reason == null || reason.isBlank() ? null : checkLength(reason.strip());
    }

    private static String checkLength(String reason) {
        if (reason.length() > MAX_LENGTH) {
            throw BatonException.invalid("the reason is " + reason.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        return reason;
    }
}
