package dev.baton.session;

import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import java.util.Optional;
import java.util.stream.LongStream;

/**
 * Checks that an agent-side call acts for the session it names, before anything changes. The bearer token
 * already limits callers to the user's own processes; this keeps one agent from acting for another (releasing
 * its files, reading its inbox). Proof is the session's key, or the caller's connection: the kernel names the
 * process holding it, and that process must descend from the session's agent process (pid and start instant).
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
            try {
                return sessions.authenticate(sessionId, key.key());
            } catch (BatonException refused) {
                if (refused.code() == ErrorCode.UNAUTHORIZED) {
                    sessions.auditRefusal(sessionId, null, "call for the session with a key that is not its own");
                }
                throw refused;
            }
        }
        ConnectionPeer connection = ((SessionProof.Peer) proof).connection();
        Session session = sessions.get(sessionId);
        if (!startedBy(session, connection)) {
            if (!connection.closed()) { // a caller that gave up before it was looked at is no one to audit
                sessions.auditRefusal(sessionId, connection.find(LongStream.empty()).orElse(null),
                        "call for the session from a process its agent did not start");
            }
            throw new BatonException(ErrorCode.UNAUTHORIZED, "the process making this call was not started by session "
                    + session.id() + "'s agent" + (session.process() == null ? " (no agent process is recorded for it)" : "")
                    + "; run baton from that agent's shell, or pass --key with the key issued at registration");
        }
        return session;
    }

    /** True when the kernel shows the connection's process descends from the session's agent process. */
    public static boolean startedBy(Session session, ConnectionPeer connection) {
        ProcessIdentity agent = session.process();
        if (agent == null || agent.startedAt() == null) {
            return false;
        }
        Optional<ProcessIdentity> caller = connection.find(ProcessAncestry.selfAndDescendants(agent));
        return caller.isPresent() && ProcessAncestry.descendsFrom(caller.get(), agent);
    }
}
