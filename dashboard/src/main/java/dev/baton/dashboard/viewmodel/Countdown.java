package dev.baton.dashboard.viewmodel;

import java.time.Duration;
import java.time.Instant;

/**
 * Time left before a negotiation becomes timeout-eligible (after which the requester may force-release),
 * with how loudly to show it. Computed from an instant the caller takes from an injected clock.
 */
public record Countdown(Duration left, Level level) implements Comparable<Countdown> {

    /** Under this much time left the row is highlighted. */
    public static final Duration NEAR = Duration.ofMinutes(2);

    public enum Level { CALM, NEAR, ELIGIBLE, SETTLED }

    public static Countdown of(NegotiationRow row, Instant now) {
        if (!row.open()) {
            return new Countdown(null, Level.SETTLED);
        }
        if ("timeout-eligible".equals(row.status()) || "timeout_eligible".equals(row.status())) {
            return new Countdown(Duration.ZERO, Level.ELIGIBLE);
        }
        if (row.timeoutAt() == null || now == null) {
            return new Countdown(null, Level.CALM);
        }
        Duration left = Duration.between(now, row.timeoutAt());
        if (left.isNegative() || left.isZero()) {
            return new Countdown(Duration.ZERO, Level.ELIGIBLE);
        }
        return new Countdown(left, left.compareTo(NEAR) <= 0 ? Level.NEAR : Level.CALM);
    }

    public String shown() {
        switch (level) {
            case SETTLED:
                return "—";
            case ELIGIBLE:
                return "timed out";
            default:
                return left == null ? "—" : RelativeTime.clock(left);
        }
    }

    @Override
    public int compareTo(Countdown other) {
        long mine = left == null ? Long.MAX_VALUE : left.getSeconds();
        long theirs = other.left == null ? Long.MAX_VALUE : other.left.getSeconds();
        return Long.compare(mine, theirs);
    }

    @Override
    public String toString() {
        return shown();
    }
}
