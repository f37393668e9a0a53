package dev.baton.team;

import java.time.Instant;

/**
 * One row of the team's durable event log, in sequence order: a claim, a release or a conflict found on reconcile.
 * {@code detail} carries a conflict's other side or a message's recipient ({@code MACHINE/SESSION}); {@code body} a
 * message's text (and its {@code file.path()} the sender's agent).
 */
record TeamEvent(long seq, Instant at, String machine, String kind, SharedPath file, String session, Long fence,
                 String detail, String body) {
}
