package dev.baton.cli;

import dev.baton.http.Callers;
import java.util.Map;

/**
 * The session a verb acts for (a lock, a negotiation, a message), and a client that proves it: with {@code --key}
 * the key; otherwise the connection itself, whose process the sidecar finds through the kernel and checks descends
 * from the session's agent (the CLI run from an agent's shell, or from the terminal its shell session belongs to).
 */
record AgentCaller(String sessionId, SidecarClient client) {

    static AgentCaller resolve(SidecarClient client, String session, String key) {
        if (key != null && !key.isBlank()) {
            if (session == null || session.isBlank()) {
                throw new CliException("--key needs --session: a key proves one session");
            }
            return new AgentCaller(session, client.withHeaders(Map.of(Callers.KEY_HEADER, key.trim())));
        }
        return new AgentCaller(CallerSession.resolve(client, session), client);
    }
}
