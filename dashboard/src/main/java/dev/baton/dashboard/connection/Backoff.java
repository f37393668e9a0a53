package dev.baton.dashboard.connection;

import java.time.Duration;

/**
 * Delays between reconnection attempts: doubling from {@code first} up to {@code max}, back to
 * {@code first} once a connection delivers a frame (an accept-then-close server must not be hammered).
 */
public final class Backoff {

    private final Duration first;
    private final Duration max;
    private Duration next;
    private int failures;

    public Backoff(Duration first, Duration max) {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("need 0 < first <= max, got " + first + " and " + max);
        }
        this.first = first;
        this.max = max;
        this.next = first;
    }

    public static Backoff standard() {
        return new Backoff(Duration.ofMillis(250), Duration.ofSeconds(5));
    }

    /** The delay before the next attempt; each call counts one failure. */
    public synchronized Duration nextDelay() {
        Duration delay = next;
        failures++;
        Duration doubled = next.multipliedBy(2);
        next = doubled.compareTo(max) > 0 ? max : doubled;
        return delay;
    }

    public synchronized void reset() {
        next = first;
        failures = 0;
    }

    /** Failed attempts since the last success: the status bar turns from reconnecting to offline after a few. */
    public synchronized int failures() {
        return failures;
    }

    public Duration max() {
        return max;
    }
}
