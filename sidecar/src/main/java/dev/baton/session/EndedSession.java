package dev.baton.session;

import java.time.Instant;

/**
 * A session that ended, kept so that its id is not free for any process to take: only the agent process that ran it,
 * or a resume of it that the sidecar can check ({@link ResumeRule}), registers it again.
 *
 * @param process   the agent process that ran it, or null when it was tied to none
 * @param lastHeard when it was last heard from: its end when it ended itself, else its last heartbeat
 */
public record EndedSession(String id, AgentKind agent, ProcessIdentity process, String keyHash, Instant lastHeard,
                           Instant endedAt) {

    /** The tombstone of {@code session}, ended at {@code now}; {@code quietly} when it did not end itself. */
    public static EndedSession of(Session session, Instant now, boolean quietly) {
        return new EndedSession(session.id(), session.agent(), session.process(), session.keyHash(),
                quietly ? session.lastHeartbeat() : now, now);
    }
}
