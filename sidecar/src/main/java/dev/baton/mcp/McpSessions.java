package dev.baton.mcp;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MCP transport sessions ({@code Mcp-Session-Id}): which protocol version each client agreed on.
 * They live in memory only; after a sidecar restart a client gets 404 and initializes again, as
 * the transport specifies. Idle ones are dropped so a long-running sidecar stays small.
 */
final class McpSessions {

    static final int MAX_SESSIONS = 1000;
    static final Duration IDLE_LIMIT = Duration.ofDays(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    record McpSession(String id, String protocolVersion, String client, Instant createdAt) {
    }

    private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastUsed = new ConcurrentHashMap<>();
    private final Clock clock;

    McpSessions(Clock clock) {
        this.clock = clock;
    }

    McpSession open(String protocolVersion, String client) {
        evictIdle();
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        McpSession session = new McpSession(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), protocolVersion,
                client, clock.instant());
        sessions.put(session.id(), session);
        lastUsed.put(session.id(), session.createdAt());
        return session;
    }

    Optional<McpSession> find(String id) {
        McpSession session = sessions.get(id);
        if (session != null) {
            lastUsed.put(id, clock.instant());
        }
        return Optional.ofNullable(session);
    }

    boolean close(String id) {
        lastUsed.remove(id);
        return sessions.remove(id) != null;
    }

    private void evictIdle() {
        Instant cutoff = clock.instant().minus(IDLE_LIMIT);
        lastUsed.forEach((id, at) -> {
            if (at.isBefore(cutoff)) {
                close(id);
            }
        });
        while (sessions.size() >= MAX_SESSIONS) {
            lastUsed.entrySet().stream().min(Map.Entry.comparingByValue(Comparator.naturalOrder()))
                    .ifPresentOrElse(oldest -> close(oldest.getKey()), sessions::clear);
        }
    }
}
