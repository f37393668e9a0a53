package dev.baton.dashboard.connection;

import java.net.URI;

/** Where one sidecar answers ({@code http://127.0.0.1:PORT}) and the bearer token it wants. */
public record SidecarAddress(URI base, String token) {

    public static SidecarAddress of(String url, String token) {
        String trimmed = url.trim();
        if (!trimmed.contains("://")) {
            trimmed = "http://" + trimmed;
        }
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return new SidecarAddress(URI.create(trimmed), token);
    }

    public URI http(String pathAndQuery) {
        return URI.create(base + pathAndQuery);
    }

    public URI events(Long since) {
        String ws = base.toString().replaceFirst("^http", "ws");
        return URI.create(ws + "/v1/events" + (since == null ? "" : "?since=" + since));
    }
}
