package dev.baton.dashboard.viewmodel;

import java.time.Duration;
import java.time.Instant;

/** Durations as a person reads them at a glance: "40 s ago", "3 min 05 s", "overdue". */
public final class RelativeTime {

    private RelativeTime() {
    }

    public static String ago(Instant then, Instant now) {
        if (then == null || now == null) {
            return "—";
        }
        Duration age = Duration.between(then, now);
        if (age.isNegative()) {
            age = Duration.ZERO;
        }
        return span(age) + " ago";
    }

    /** A short span: "12 s", "4 min", "2 h 10 min", "3 d". */
    public static String span(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return (s / 60) + " min";
        }
        if (s < 86_400) {
            long minutes = (s % 3600) / 60;
            return (s / 3600) + " h" + (minutes == 0 ? "" : " " + minutes + " min");
        }
        return (s / 86_400) + " d";
    }

    /** A countdown to the second: "4:05", "0:09". */
    public static String clock(Duration d) {
        long s = Math.max(0, d.getSeconds());
        return String.format("%d:%02d", s / 60, s % 60);
    }
}
