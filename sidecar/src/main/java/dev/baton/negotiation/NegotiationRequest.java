package dev.baton.negotiation;

import java.time.Duration;

/** A request for a file as the domain sees it: a canonical path, a reason, an urgency, how long to wait for an answer. */
public record NegotiationRequest(String requesterId, String file, String reason, Urgency urgency, Duration waitFor) {

    public NegotiationRequest {
        urgency = urgency == null ? Urgency.NORMAL : urgency;
        waitFor = waitFor == null ? Duration.ZERO : waitFor;
    }
}
