package dev.baton.dashboard.connection;

/** A connection state with the sentence that explains it ("no sidecar is running for …; start one with …"). */
public record ConnectionStatus(ConnectionState state, String detail) {

    public static ConnectionStatus connecting(String where) {
        return new ConnectionStatus(ConnectionState.CONNECTING, "connecting to " + where);
    }
}
