package dev.baton.session;

import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;

/**
 * Checks that an agent-side call acts for the session it names, before anything changes. The
 * bearer token already limits callers to the user's own processes; this keeps one agent from
 * acting for another (releasing its files, reading its inbox). A key is proof; a process claim is
 * checked against the OS process tree but is not bound to the connection, so it stops mistakes and
 * casual impersonation, not a local process set on forging it.
 */
public final class AgentIdentity {

    private final SessionRegistry sessions;

    public AgentIdentity(SessionRegistry sessions) {
        this.sessions = sessions;
    }

    /** The session, or UNAUTHORIZED (wrong key, or a caller not started by the session's agent). */
    public Session verify(String sessionId, SessionProof proof) {
        if (sessionId == null || sessionId.isBlank()) {
            throw BatonException.invalid("session_id is required");
        }
        if (proof == null) {
            throw new BatonException(ErrorCode.UNAUTHORIZED, "acting for session " + sessionId + " needs proof: its key"
                    + " (issued when it registered), or a call from a process the session's agent started");
        }
        if (proof instanceof SessionProof.Key key) {
            return sessions.authenticate(sessionId, key.key());
        }
        SessionProof.Descendant caller = (SessionProof.Descendant) proof;
        Session session = sessions.get(sessionId);
        if (session.process() == null || !ProcessAncestry.descendsFrom(caller, session.process())) {
            throw new BatonException(ErrorCode.UNAUTHORIZED, "process " + caller.pid() + " was not started by session "
                    + session.id() + "'s agent" + (session.process() == null ? " (no agent process is recorded for it)" : "")
                    + "; run baton from that agent's shell, or pass --key with the key issued at registration");
        }
        return session;
    }
}
