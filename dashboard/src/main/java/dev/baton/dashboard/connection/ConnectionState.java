package dev.baton.dashboard.connection;

/** How the dashboard's link to the sidecar stands, as the status bar shows it. */
public enum ConnectionState {
    CONNECTING("Connecting"),
    CONNECTED("Connected"),
    RECONNECTING("Reconnecting"),
    OFFLINE("Offline");

    private final String shown;

    ConnectionState(String shown) {
        this.shown = shown;
    }

    public String shown() {
        return shown;
    }
}
