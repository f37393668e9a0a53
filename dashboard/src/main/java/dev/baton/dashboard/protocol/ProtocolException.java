package dev.baton.dashboard.protocol;

/** A frame the dashboard cannot read; the connection starts over from a fresh snapshot. */
public final class ProtocolException extends RuntimeException {

    public ProtocolException(String message) {
        super(message);
    }
}
