package dev.baton.installer;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where the sidecar listens: the {@code endpoint} file it writes when ready, else {@code BATON_PORT}, else 7433. */
record SidecarEndpoint(String host, int port) {

    static final int DEFAULT_PORT = 7433;
    static final String LOOPBACK = "127.0.0.1";

    static SidecarEndpoint resolve(InstallLayout layout) throws InstallerException {
        Optional<SidecarEndpoint> written = fromFile(layout.endpointFile());
        if (written.isPresent()) {
            return written.get();
        }
        if (layout.portOverride().isPresent()) {
            String text = layout.portOverride().get().strip();
            return new SidecarEndpoint(LOOPBACK, parsePort(text, "BATON_PORT"));
        }
        return new SidecarEndpoint(LOOPBACK, DEFAULT_PORT);
    }

    /** Reads {@code 127.0.0.1:PORT} from the endpoint file, if the sidecar has written one. */
    static Optional<SidecarEndpoint> fromFile(Path endpointFile) throws InstallerException {
        if (!Files.exists(endpointFile)) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(endpointFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new InstallerException("Cannot read " + endpointFile + ": " + e.getMessage(), e);
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            throw new InstallerException(endpointFile + " holds '" + text + "', expected HOST:PORT such as "
                    + LOOPBACK + ":" + DEFAULT_PORT + ". Restart the sidecar (baton serve) to rewrite it.");
        }
        return Optional.of(new SidecarEndpoint(text.substring(0, colon), parsePort(text.substring(colon + 1), endpointFile.toString())));
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

    String mcpUrl() {
        return "http://" + host + ":" + port + "/mcp";
    }

    URI healthUri() {
        return URI.create("http://" + host + ":" + port + "/v1/health");
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
