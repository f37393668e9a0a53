package dev.baton.dashboard.model;

import java.time.Instant;

/** One line of the activity log: an event as a sentence a supervisor reads at a glance. */
public record ActivityEntry(long seq, Instant at, String kind, String summary) {
}
