package dev.baton.dashboard.connection;

import java.time.Duration;

/**
 * A connection state with the sentence that explains it ("no sidecar is running for …; start one with …") and, after
 * a failed attempt, how long until the next one (null otherwise).
 */
public record ConnectionStatus(ConnectionState state, String reason, Duration retryIn) {

    public ConnectionStatus(ConnectionState state, String reason) {
        this(state, reason, null);
    }

    public static ConnectionStatus connecting(String where) {
        return new ConnectionStatus(ConnectionState.CONNECTING, "connecting to " + where);
    }

    /** The reason with the next attempt: "the sidecar at … is not answering — retrying in 4 s". */
    public String detail() {
        return retryIn == null ? reason : reason + " — " + retrying();
    }

    /** "retrying in 4 s", or empty when no attempt is scheduled. */
    public String retrying() {
        if (retryIn == null) {
            return "";
        }
        return "retrying in " + (retryIn.toMillis() < 1000 ? retryIn.toMillis() + " ms" : retryIn.toSeconds() + " s");
    }
}
