package dev.baton.dashboard.connection;

/** No sidecar can be reached right now; the message says why and what to do. */
public final class SidecarUnavailableException extends RuntimeException {

    public SidecarUnavailableException(String message) {
        super(message);
    }
}
