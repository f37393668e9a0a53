package dev.baton.dashboard.protocol;

import java.time.Instant;

/** An edge of the wait-for graph: {@code waiter} waits for (or negotiates for) {@code file}, held by {@code holder}. */
public record WaitInfo(String waiter, String holder, String file, String kind, Instant since) {
}
