package dev.baton.session;

import dev.baton.naming.SessionName;
import java.time.Instant;

/**
 * One agent conversation, the owner of locks. A subagent is a session of its own whose
 * {@code parentId} names the conversation it runs in; it ends with its parent.
 */
public record Session(
        String id,
        AgentKind agent,
        ProcessIdentity process,
        String host,
        String cwd,
        String repoRoot,
        Instant startedAt,
        Instant lastHeartbeat,
        String name,
        String parentId,
        String keyHash,
        Plan plan) {

    public Session withHeartbeat(Instant at) {
        return new Session(id, agent, process, host, cwd, repoRoot, startedAt, at, name, parentId, keyHash, plan);
    }

    public Session withName(String newName) {
        return new Session(id, agent, process, host, cwd, repoRoot, startedAt, lastHeartbeat, newName, parentId, keyHash, plan);
    }

    public Session withPlan(Plan newPlan) {
        return new Session(id, agent, process, host, cwd, repoRoot, startedAt, lastHeartbeat, name, parentId, keyHash, newPlan);
    }

    /** The session whose locks this one shares: a subagent may edit what its parent holds. */
    public String familyId() {
        return parentId == null ? id : parentId;
    }

    public boolean isSubagent() {
        return parentId != null;
    }

    /** The id as a person reads it, shortened at word boundaries: see {@link SessionName#shortId}. */
    public String shortId() {
        return SessionName.shortId(id);
    }

    public static String shortId(String id) {
        return SessionName.shortId(id);
    }

    /** The session as a person reads it: see {@link SessionName#of}. */
    public String label() {
        return SessionName.of(agent.wireName(), id, name);
    }
}
