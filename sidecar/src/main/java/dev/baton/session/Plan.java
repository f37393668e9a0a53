package dev.baton.session;

import java.time.Instant;

/** What a session says it is working on, so others can judge whether to wait for it. */
public record Plan(String goal, String currentTask, Instant updatedAt) {

    public String summary() {
        if (currentTask == null || currentTask.isBlank()) {
            return goal;
        }
        return goal == null || goal.isBlank() ? currentTask : goal + " — now: " + currentTask;
    }
}
