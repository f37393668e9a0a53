package dev.baton.state;

import java.time.Instant;

/**
 * One line of the audit trail: what happened to which file (or named lock), for whom, and why.
 * {@code actor} is who caused it when that is not the session itself (a supervisor, another session).
 */
public record AuditEntry(long id, Instant at, String action, String sessionId, String file, String reason, String actor) {

    public static AuditEntry of(Instant at, String action, String sessionId, String file, String reason, String actor) {
        return new AuditEntry(0, at, action, sessionId, file, reason, actor);
    }
}
