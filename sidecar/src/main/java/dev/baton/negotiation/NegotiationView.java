package dev.baton.negotiation;

import dev.baton.state.World;
import java.time.Instant;

/**
 * A negotiation as both parties and the dashboard see it, with its status as of now and one
 * sentence saying where it stands and what can happen next. {@code requesterMachine} and {@code holderMachine} name
 * the machine of a party that runs on another machine of the team (null: this machine).
 */
public record NegotiationView(
        String id,
        String file,
        String requester,
        String holder,
        String requesterMachine,
        String holderMachine,
        String reason,
        String urgency,
        String status,
        Instant createdAt,
        Instant timeoutAt,
        Instant answeredAt,
        Integer etaMinutes,
        String answerReason,
        Instant resolvedAt,
        String resolution,
        String summary) {

    public static NegotiationView of(World world, Negotiation n, Instant now) {
        NegotiationStatus status = n.status(now);
        return new NegotiationView(n.id(), n.file(), n.requesterId(), n.holderId(), n.requesterMachine(),
                n.holderMachine(), n.reason(), n.urgency().wireName(),
                status.wireName(), n.createdAt(), n.timeoutAt(), n.answeredAt(), n.etaMinutes(), n.answerReason(),
                n.resolvedAt(), n.resolution(), summary(world, n, status, now));
    }

    private static String summary(World world, Negotiation n, NegotiationStatus status, Instant now) {
        String file = Parties.fileFor(world, n.requesterId(), n.file());
        String holder = Parties.holder(world, n);
        return switch (status) {
            case PENDING -> n.id() + ": " + holder + " has not answered the " + n.urgency().wireName() + " request for " + file
                    + " yet; it is told on its next tool call. The request times out at " + n.timeoutAt() + " ("
                    + Parties.in(now, n.timeoutAt()) + ").";
            case DEFERRED -> n.id() + ": " + holder + " keeps " + file + " for up to " + n.etaMinutes() + " more min: \""
                    + n.answerReason() + "\". The request times out at " + n.timeoutAt() + " (" + Parties.in(now, n.timeoutAt()) + ").";
            case TIMEOUT_ELIGIBLE -> n.id() + ": " + holder + " did not hand over " + file + " by " + n.timeoutAt()
                    + (n.holderElsewhere() ? "; a lock of another machine cannot be force-released from here: message"
                    + " them with `baton msg send " + n.holderId() + " \"…\"`, or ask whoever supervises machine "
                    + n.holderMachine() + " to free it there."
                    : n.requesterElsewhere() ? "; the requester, on machine " + n.requesterMachine() + ", cannot take"
                    + " it from here."
                    : "; the requester may now force-release it with `baton force-release " + Parties.quoted(file) + "`.");
            case RELEASED -> n.id() + ": " + file + " was released (" + n.resolution() + ") at " + n.resolvedAt()
                    + "; take it by editing it or with `baton acquire`.";
            case WITHDRAWN -> n.id() + ": withdrawn (" + n.resolution() + ") at " + n.resolvedAt() + ".";
        };
    }
}
