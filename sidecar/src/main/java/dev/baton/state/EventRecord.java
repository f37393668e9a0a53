package dev.baton.state;

import java.time.Instant;

/**
 * One event of the change stream as it is kept: its place in the one sequence, when it happened,
 * its kind ({@code lock.acquired}, {@code deadlock.detected}, …) and its data as JSON text.
 */
public record EventRecord(long seq, Instant at, String kind, String data) {
}
