package dev.baton.plan;

import java.time.Instant;

/** One session's published plan, with who the session is, as others read it. */
public record PlanEntry(
        String sessionId,
        String agent,
        String name,
        String cwd,
        String goal,
        String currentTask,
        Instant updatedAt,
        int locks) {
}
