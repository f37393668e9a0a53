package dev.baton.negotiation;

import java.time.Instant;

/**
 * A request by one session for a file another session holds. {@code timeoutAt} is when the
 * requester may force-release (creation + the urgency's timeout, pushed back by a deferral);
 * {@code resolution} says how it ended (the release reason, or "withdrawn"). The notified fields
 * make sure each party is told of each step once. In a team one party may run on another machine:
 * {@code requesterMachine} or {@code holderMachine} names it (null: this machine), and
 * {@code remoteAgent} is that party's agent; both machines keep a row under one id.
 */
public record Negotiation(
        String id,
        String file,
        String requesterId,
        String holderId,
        String reason,
        Urgency urgency,
        NegotiationStatus state,
        Instant createdAt,
        Instant timeoutAt,
        Instant answeredAt,
        Integer etaMinutes,
        String answerReason,
        Instant resolvedAt,
        String resolution,
        boolean holderNotified,
        NegotiationStatus requesterNotified,
        String requesterMachine,
        String holderMachine,
        String remoteAgent) {

    /** A negotiation between two sessions of this machine. */
    public Negotiation(String id, String file, String requesterId, String holderId, String reason, Urgency urgency,
                       NegotiationStatus state, Instant createdAt, Instant timeoutAt, Instant answeredAt,
                       Integer etaMinutes, String answerReason, Instant resolvedAt, String resolution,
                       boolean holderNotified, NegotiationStatus requesterNotified) {
        this(id, file, requesterId, holderId, reason, urgency, state, createdAt, timeoutAt, answeredAt, etaMinutes,
                answerReason, resolvedAt, resolution, holderNotified, requesterNotified, null, null, null);
    }

    /** The status as of {@code now}: an open negotiation past its timeout is timeout-eligible. */
    public NegotiationStatus status(Instant now) {
        if (state.isOpen() && !now.isBefore(timeoutAt)) {
            return NegotiationStatus.TIMEOUT_ELIGIBLE;
        }
        if (state == NegotiationStatus.TIMEOUT_ELIGIBLE) {
            // only when the clock was set back after the sweeper marked it
            return answeredAt == null ? NegotiationStatus.PENDING : NegotiationStatus.DEFERRED;
        }
        return state;
    }

    public boolean isOpen() {
        return state.isOpen();
    }

    /** Whether the requester runs on another machine of the team (this machine keeps the holder's side). */
    public boolean requesterElsewhere() {
        return requesterMachine != null;
    }

    /** Whether the holder runs on another machine of the team (this machine keeps the requester's side). */
    public boolean holderElsewhere() {
        return holderMachine != null;
    }

    public Negotiation deferred(Instant at, int minutes, String why) {
        Instant eta = at.plusSeconds(60L * minutes);
        Instant newTimeout = eta.isAfter(timeoutAt) ? eta : timeoutAt;
        return new Negotiation(id, file, requesterId, holderId, reason, urgency, NegotiationStatus.DEFERRED, createdAt,
                newTimeout, at, minutes, why, null, null, holderNotified, requesterNotified, requesterMachine,
                holderMachine, remoteAgent);
    }

    public Negotiation resolved(NegotiationStatus end, Instant at, String how) {
        return new Negotiation(id, file, requesterId, holderId, reason, urgency, end, createdAt, timeoutAt, answeredAt,
                etaMinutes, answerReason, at, how, holderNotified, requesterNotified, requesterMachine, holderMachine,
                remoteAgent);
    }

    public Negotiation timedOut() {
        return new Negotiation(id, file, requesterId, holderId, reason, urgency, NegotiationStatus.TIMEOUT_ELIGIBLE,
                createdAt, timeoutAt, answeredAt, etaMinutes, answerReason, resolvedAt, resolution, holderNotified,
                requesterNotified, requesterMachine, holderMachine, remoteAgent);
    }

    /** The same negotiation with the remote party's agent, as that party's machine named it (null keeps the known one). */
    public Negotiation withRemoteAgent(String agent) {
        return agent == null ? this : new Negotiation(id, file, requesterId, holderId, reason, urgency, state, createdAt,
                timeoutAt, answeredAt, etaMinutes, answerReason, resolvedAt, resolution, holderNotified,
                requesterNotified, requesterMachine, holderMachine, agent);
    }

    public Negotiation holderTold() {
        return new Negotiation(id, file, requesterId, holderId, reason, urgency, state, createdAt, timeoutAt, answeredAt,
                etaMinutes, answerReason, resolvedAt, resolution, true, requesterNotified, requesterMachine,
                holderMachine, remoteAgent);
    }

    public Negotiation requesterTold(NegotiationStatus told) {
        return new Negotiation(id, file, requesterId, holderId, reason, urgency, state, createdAt, timeoutAt, answeredAt,
                etaMinutes, answerReason, resolvedAt, resolution, holderNotified, told, requesterMachine, holderMachine,
                remoteAgent);
    }
}
