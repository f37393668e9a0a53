package dev.baton.installer.layout;

import dev.baton.home.BatonHome;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/** Where the sidecar listens: the configured port for what agents keep in their config, the endpoint file for now. */
public record SidecarEndpoint(String host, int port) {

    public static final int DEFAULT_PORT = BatonHome.DEFAULT_PORT;
    public static final String LOOPBACK = BatonHome.LOOPBACK;

    /**
     * The port every sidecar started for this user listens on ({@code BATON_PORT}, else 7433): what the service
     * manager's socket listens on, since it outlives any one sidecar. A port of 0 (any free port) changes at every
     * start, so no socket could be set up for it.
     */
    public static SidecarEndpoint configured(InstallLayout layout) throws InstallerException {
        if (layout.portOverride().isEmpty()) {
            return new SidecarEndpoint(LOOPBACK, DEFAULT_PORT);
        }
        String text = layout.portOverride().get().strip();
        if (text.equals("0")) {
            throw new InstallerException("BATON_PORT=0 lets the sidecar take any free port, a new one at every start,"
                    + " so the service manager's socket could not listen on it for the sidecar. Set up the service with"
                    + " a fixed port (unset BATON_PORT for " + DEFAULT_PORT + ", or export BATON_PORT=N with N from 1 to"
                    + " 65535), or leave the sidecar to the hooks, which start it on any port.");
        }
        return new SidecarEndpoint(LOOPBACK, parsePort(text, "BATON_PORT"));
    }

    /** The endpoint the running sidecar announced, if one is running. */
    public static Optional<SidecarEndpoint> running(InstallLayout layout) throws InstallerException {
        BatonHome home = layout.sidecarHome();
        try {
            if (home.readEndpoint().isEmpty()) {
                return Optional.empty();
            }
            Optional<Integer> port = home.readEndpointPort();
            if (port.isEmpty()) {
                throw new InstallerException(home.endpointFile() + " holds '" + home.readEndpoint().orElse("")
                        + "', expected " + LOOPBACK + ":PORT. Restart the sidecar (baton serve) to rewrite it.");
            }
            return Optional.of(new SidecarEndpoint(LOOPBACK, port.get()));
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + home.endpointFile() + ": " + e.getMessage(), e);
        }
    }

    private static int parsePort(String text, String source) throws InstallerException {
        try {
            int port = Integer.parseInt(text.strip());
            if (port > 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InstallerException(source + " gives port '" + text + "'; a port is a number from 1 to 65535.");
    }

    public URI healthUri() {
        return URI.create("http://" + host + ":" + port + "/v1/health");
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
