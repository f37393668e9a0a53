package dev.baton.version;

import dev.baton.audit.AuditRetention;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bounds of the kept versions: a file larger than {@code maxFileBytes} ({@code BATON_VERSION_MAX_FILE}) is not
 * kept; of all kept contents, those not kept again within {@code maxAge} ({@code BATON_VERSIONS_MAX_AGE}) are
 * dropped, and the oldest go first while they take more than {@code maxTotalBytes} ({@code BATON_VERSIONS_MAX_TOTAL}).
 * Sizes are bytes, or with {@code k}, {@code m}, {@code g} (KiB, MiB, GiB).
 */
public record VersionSettings(long maxFileBytes, long maxTotalBytes, Duration maxAge) {

    public static final long DEFAULT_MAX_FILE_BYTES = 16L << 20;
    public static final long DEFAULT_MAX_TOTAL_BYTES = 512L << 20;
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(7);
    private static final Pattern SIZE = Pattern.compile("(\\d{1,15})\\s*([kmg])?i?b?");

    public VersionSettings {
        if (maxFileBytes < 1 || maxTotalBytes < maxFileBytes || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("kept versions need a positive file size, a total at least as large,"
                    + " and a positive age; were " + maxFileBytes + ", " + maxTotalBytes + ", " + maxAge);
        }
    }

    public static VersionSettings defaults() {
        return new VersionSettings(DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_TOTAL_BYTES, DEFAULT_MAX_AGE);
    }

    public static VersionSettings fromEnvironment(Map<String, String> env) {
        long file = size("BATON_VERSION_MAX_FILE", env.get("BATON_VERSION_MAX_FILE"), DEFAULT_MAX_FILE_BYTES);
        long total = size("BATON_VERSIONS_MAX_TOTAL", env.get("BATON_VERSIONS_MAX_TOTAL"), DEFAULT_MAX_TOTAL_BYTES);
        if (total < file) {
            throw new IllegalArgumentException("BATON_VERSIONS_MAX_TOTAL (" + total + " bytes) must be at least"
                    + " BATON_VERSION_MAX_FILE (" + file + " bytes)");
        }
        return new VersionSettings(file, total,
                AuditRetention.age("BATON_VERSIONS_MAX_AGE", env.get("BATON_VERSIONS_MAX_AGE"), DEFAULT_MAX_AGE));
    }

    private static long size(String variable, String value, long fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        Matcher matcher = SIZE.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            int shift = matcher.group(2) == null ? 0 : switch (matcher.group(2)) {
                case "k" -> 10;
                case "m" -> 20;
                default -> 30;
            };
            if (amount >= 1 && amount <= Long.MAX_VALUE >> shift) {
                return amount << shift;
            }
        }
        throw new IllegalArgumentException(variable + " must be a size of 1 byte or more such as 16m, 512k or 4096,"
                + " was '" + value + "'");
    }
}
