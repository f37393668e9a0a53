package dev.baton.cli;

import dev.baton.http.Callers;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The session a verb acts for (a lock, a negotiation, a message), and a client that proves it: with {@code --key} the
 * key; otherwise this process, which the sidecar checks descends from the session's agent (the
 * CLI run from an agent's shell, or from the terminal its shell session belongs to).
 */
record AgentCaller(String sessionId, SidecarClient client) {

    static AgentCaller resolve(SidecarClient client, String session, String key) {
        Map<String, String> proof = new LinkedHashMap<>();
        String sessionId;
        if (key != null && !key.isBlank()) {
            if (session == null || session.isBlank()) {
                throw new CliException("--key needs --session: a key proves one session");
            }
            sessionId = session;
            proof.put(Callers.KEY_HEADER, key.trim());
        } else {
            sessionId = CallerSession.resolve(client, session);
            ProcessHandle self = ProcessHandle.current();
            proof.put(Callers.CALLER_PID_HEADER, Long.toString(self.pid()));
            self.info().startInstant().map(Instant::toString).ifPresent(start -> proof.put(Callers.CALLER_START_HEADER, start));
        }
        return new AgentCaller(sessionId, client.withHeaders(proof));
    }
}
