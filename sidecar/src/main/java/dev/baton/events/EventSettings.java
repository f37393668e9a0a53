package dev.baton.events;

import java.util.Map;

/**
 * How much of the stream is kept and buffered: events retained for {@code since} replays
 * ({@code BATON_EVENT_RETENTION}), and frames queued per client before it is told to resync
 * ({@code BATON_EVENT_CLIENT_QUEUE}).
 */
public record EventSettings(int retention, int clientQueue) {

    public static final int DEFAULT_RETENTION = 100_000;
    public static final int DEFAULT_CLIENT_QUEUE = 10_000;

    public EventSettings {
        if (retention < 1 || clientQueue < 1) {
            throw new IllegalArgumentException("event retention and client queue must be at least 1");
        }
    }

    public static EventSettings defaults() {
        return new EventSettings(DEFAULT_RETENTION, DEFAULT_CLIENT_QUEUE);
    }

    public static EventSettings fromEnvironment(Map<String, String> env) {
        return new EventSettings(number(env, "BATON_EVENT_RETENTION", DEFAULT_RETENTION),
                number(env, "BATON_EVENT_CLIENT_QUEUE", DEFAULT_CLIENT_QUEUE));
    }

    /** Pruning runs once per batch of events, so its cost is spread thin. */
    int pruneBatch() {
        return Math.max(1, Math.min(1_000, retention / 10));
    }

    private static int number(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'", e);
        }
    }
}
