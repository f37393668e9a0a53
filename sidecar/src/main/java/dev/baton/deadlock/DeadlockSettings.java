package dev.baton.deadlock;

import java.time.Duration;
import java.util.Map;

/**
 * How deadlocks are handled: the policy, and how long a denied edit counts as a wait for the file
 * ({@code BATON_DEADLOCK_POLICY}, {@code BATON_DENIED_WAIT_SECONDS}).
 */
public record DeadlockSettings(DeadlockPolicy policy, Duration deniedWindow) {

    public static final Duration DEFAULT_DENIED_WINDOW = Duration.ofMinutes(2);

    public DeadlockSettings {
        if (deniedWindow.isNegative() || deniedWindow.isZero()) {
            throw new IllegalArgumentException("the denied-edit window must be positive, was " + deniedWindow);
        }
    }

    public static DeadlockSettings defaults() {
        return new DeadlockSettings(DeadlockPolicy.ADVISE, DEFAULT_DENIED_WINDOW);
    }

    public static DeadlockSettings fromEnvironment(Map<String, String> env) {
        String policy = env.get("BATON_DEADLOCK_POLICY");
        String window = env.get("BATON_DENIED_WAIT_SECONDS");
        return new DeadlockSettings(
                policy == null || policy.isBlank() ? DeadlockPolicy.ADVISE : DeadlockPolicy.fromWireName(policy),
                window == null || window.isBlank() ? DEFAULT_DENIED_WINDOW : Duration.ofSeconds(seconds(window)));
    }

    private static long seconds(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("BATON_DENIED_WAIT_SECONDS must be a whole number of seconds, was '"
                    + value + "'", e);
        }
    }
}
