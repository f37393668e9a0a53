package dev.baton.lock;

import java.time.Instant;

/** Who holds a file, as a blocked caller needs to see it: enough to judge whether to wait or ask. */
public record Holder(
        String session,
        String agent,
        Long pid,
        String alive,
        String host,
        String cwd,
        Instant since,
        Instant lastEdit,
        Instant lastHeartbeat,
        String name,
        String plan) {
}
