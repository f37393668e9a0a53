package dev.baton.audit;

import java.time.Duration;
import java.util.Map;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much of the audit log is kept: entries younger than {@code maxAge} ({@code BATON_AUDIT_MAX_AGE}: seconds, or
 * {@code 90d}, {@code 12h}, {@code 30m}) and, of those, the newest {@code maxRows} ({@code BATON_AUDIT_MAX_ROWS}).
 * Ended sessions' ids are kept as long as their audit entries.
 */
public record AuditRetention(Duration maxAge, long maxRows) {

    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(90);
    public static final long DEFAULT_MAX_ROWS = 1_000_000;
    /** The most ended sessions kept, whatever their age. */
    public static final int MAX_ENDED_SESSIONS = 10_000;
    private static final Pattern AGE = Pattern.compile("(\\d{1,9})\\s*(s|m|min|h|d)?");

    public AuditRetention {
        if (maxAge.isNegative() || maxAge.isZero() || maxRows < 1) {
            throw new IllegalArgumentException("the audit must keep some entries: a positive age and at least one row");
        }
    }

    public static AuditRetention defaults() {
        return new AuditRetention(DEFAULT_MAX_AGE, DEFAULT_MAX_ROWS);
    }

    public static AuditRetention fromEnvironment(Map<String, String> env) {
        return new AuditRetention(age(env.get("BATON_AUDIT_MAX_AGE")), rows(env.get("BATON_AUDIT_MAX_ROWS")));
    }

    private static Duration age(String value) {
        return age("BATON_AUDIT_MAX_AGE", value, DEFAULT_MAX_AGE);
    }

    /**
     * An age as Baton's settings spell it (seconds, or {@code 90d}, {@code 12h}, {@code 30m}); {@code fallback} when
     * {@code value} is unset. {@code variable} names the setting in the error.
     */
    public static Duration age(String variable, String value, Duration fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        Matcher matcher = AGE.matcher(value.trim().toLowerCase(Locale.ROOT));
        long amount = matcher.matches() ? Long.parseLong(matcher.group(1)) : 0;
        if (amount < 1) {
            throw new IllegalArgumentException(variable + " must be a positive age such as 90d, 12h, 30m or"
                    + " 3600 (seconds), was '" + value + "'");
        }
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        return switch (unit) {
            case "d" -> Duration.ofDays(amount);
            case "h" -> Duration.ofHours(amount);
            case "m", "min" -> Duration.ofMinutes(amount);
            default -> Duration.ofSeconds(amount);
        };
    }

    private static long rows(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_MAX_ROWS;
        }
        try {
            long rows = Long.parseLong(value.trim().replace("_", ""));
            if (rows >= 1) {
                return rows;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("BATON_AUDIT_MAX_ROWS must be a whole number of entries, 1 or more, was '"
                + value + "'");
    }
}
