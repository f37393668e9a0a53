package dev.baton.session;

import java.util.Objects;

/**
 * The kind of program a session belongs to; the wire name is what the API, the audit log and the database use. The
 * sidecar's own clients are {@link #CLI} and {@link #API}; each agent's package defines its agent's kind, and the
 * agents the sidecar knows are an {@link AgentKinds}.
 */
public record AgentKind(String wireName) {

    /** A person's session from a terminal ({@code baton acquire …}). */
    public static final AgentKind CLI = new AgentKind("cli");
    /** A session a script or program registered through the API. */
    public static final AgentKind API = new AgentKind("api");

    public AgentKind {
        Objects.requireNonNull(wireName, "wireName");
    }

    /** True for the coding agents; the CLI and API clients are people's and scripts' own sessions. */
    public boolean isAgent() {
        return !equals(CLI) && !equals(API);
    }

    /**
     * The kind a stored row names. A name this sidecar has no agent for (a newer Baton's) keeps its name; a row that
     * names none reads as an API session.
     */
    public static AgentKind stored(String wireName) {
        return wireName == null || wireName.isBlank() ? API : new AgentKind(wireName);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
