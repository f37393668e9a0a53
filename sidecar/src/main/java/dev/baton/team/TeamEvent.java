package dev.baton.team;

import java.time.Instant;

/**
 * One row of the team's durable event log, in sequence order: a claim, a release, a conflict found on reconcile, a
 * message or a negotiation's step. {@code detail} carries a conflict's other side or the recipient of a message or a
 * step ({@code MACHINE/SESSION}); {@code body} a message's text or a step's {@link NegotiationStep}; {@code agent} a
 * message sender's agent (sidecars before this column wrote it in the path, which is read as it then).
 */
record TeamEvent(long seq, Instant at, String machine, String kind, SharedPath file, String session, Long fence,
                 String detail, String body, String agent) {
}
