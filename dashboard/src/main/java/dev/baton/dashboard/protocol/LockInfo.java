package dev.baton.dashboard.protocol;

import java.time.Instant;

/** One held file lock as {@code GET /v1/locks} and the event stream describe it. */
public record LockInfo(String file, Holder holder, Instant since, Instant lastEdit, boolean editInFlight) {

    /** The holding session, with enough facts to judge whether it is still working. */
    public record Holder(String session, String agent, Long pid, String alive, String host, String cwd, Instant since,
                         Instant lastEdit, Instant lastHeartbeat, String name, String plan) {
    }

    public String holderSession() {
        return holder == null ? null : holder.session();
    }
}
