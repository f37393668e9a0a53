package dev.baton.negotiation;

import java.time.Instant;

/** An open negotiation as an edge of the wait-for graph: {@code requester} waits for {@code holder} to give up {@code file}. */
public record PendingRequest(String negotiationId, String requester, String holder, String file, Instant since) {
}
