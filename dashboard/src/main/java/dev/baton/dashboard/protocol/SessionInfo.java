package dev.baton.dashboard.protocol;

import java.time.Instant;

/**
 * One agent session as {@code GET /v1/sessions} and the event stream describe it.
 *
 * @param label the session as a person reads it, from the sidecar ({@code claude-code 3f2a9c1e}, or its name);
 *              null from a sidecar that does not say
 */
public record SessionInfo(String id, String label, String agent, Long pid, Instant pidStart, String alive, String host, String cwd,
                          String repoRoot, Instant startedAt, Instant lastHeartbeat, String name, String parentId,
                          PlanInfo plan, Integer locks) {

    /** What a session says it is working on. */
    public record PlanInfo(String goal, String currentTask, Instant updatedAt) {
    }

    public SessionInfo withPlan(PlanInfo newPlan) {
        return new SessionInfo(id, label, agent, pid, pidStart, alive, host, cwd, repoRoot, startedAt, lastHeartbeat, name,
                parentId, newPlan, locks);
    }
}
