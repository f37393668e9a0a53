package dev.baton.session;

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

    /** The first 8 characters of the id; a subagent keeps its agent part whole, so siblings never look alike. */
    public String shortId() {
        return shortId(id);
    }

    public static String shortId(String id) {
        int slash = id.indexOf('/');
        if (slash > 0) {
            return shortId(id.substring(0, slash)) + id.substring(slash);
        }
        return id.length() <= 8 ? id : id.substring(0, 8);
    }
}
