package dev.baton.dashboard.protocol;

import java.time.Instant;
import java.util.Locale;
import java.util.Set;

/** A request for a file someone holds, with its timeout after which the requester may force-release. */
public record NegotiationInfo(String id, String file, String requester, String holder, String reason, String urgency,
                              String status, Instant createdAt, Instant timeoutAt, Integer etaMinutes,
                              String deferReason) {

    private static final Set<String> SETTLED = Set.of("resolved", "released", "cancelled", "canceled", "withdrawn",
            "closed", "expired");

    /** Whether the negotiation still waits for an answer or for its holder to release. */
    public boolean open() {
        return status == null || !SETTLED.contains(status.toLowerCase(Locale.ROOT));
    }
}
