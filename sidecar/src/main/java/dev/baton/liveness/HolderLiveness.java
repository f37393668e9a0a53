package dev.baton.liveness;

import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether a session still counts as holding its locks. A holder whose process has exited (gone, a
 * zombie, or its pid reused) is stale at once. A holder whose process is verifiably alive (pid and start
 * instant match) is never stale by silence: its clean files went back at its turn's end, so what it still holds
 * is work in progress (dirty files, an edit in flight), and a person may be reading its plan; negotiation, the
 * supervisor or the end of its session free those. Only a holder whose process cannot be checked (none
 * recorded, or not inspectable) loses its locks when it has not been heard from within the heartbeat TTL
 * ({@code BATON_HEARTBEAT_TTL}, default 30 min).
 */
public final class HolderLiveness {

    public static final Duration DEFAULT_HEARTBEAT_TTL = Duration.ofMinutes(30);
    public static final String TTL_VARIABLE = "BATON_HEARTBEAT_TTL";
    private static final Pattern TTL = Pattern.compile("(\\d{1,9})\\s*(s|m|min|h)?");

    private final ProcessLiveness processes;
    private final Duration heartbeatTtl;

    public HolderLiveness(ProcessLiveness processes, Duration heartbeatTtl) {
        this.processes = processes;
        this.heartbeatTtl = heartbeatTtl;
    }

    public Liveness processOf(Session session) {
        return processOf(session.process());
    }

    public Liveness processOf(ProcessIdentity process) {
        return process == null ? Liveness.UNKNOWN : processes.of(process);
    }

    public Staleness of(Session session, Instant now) {
        Liveness process = processOf(session);
        if (process.isGone()) {
            return Staleness.PROCESS_EXITED;
        }
        if (process == Liveness.ALIVE) {
            return Staleness.FRESH;
        }
        if (session.lastHeartbeat().plus(heartbeatTtl).isBefore(now)) {
            return Staleness.HEARTBEAT_EXPIRED;
        }
        return Staleness.FRESH;
    }

    /**
     * The heartbeat TTL the environment sets ({@code BATON_HEARTBEAT_TTL}: seconds, or a number with {@code s},
     * {@code m}/{@code min} or {@code h}, e.g. {@code 45m}); the default when unset.
     *
     * @throws IllegalArgumentException naming the variable when the value is not a positive duration
     */
    public static Duration heartbeatTtl(Map<String, String> env) {
        return durationSetting(env, TTL_VARIABLE, DEFAULT_HEARTBEAT_TTL);
    }

    /**
     * A duration the environment sets in {@code variable} (seconds, or a number with {@code s}, {@code m}/{@code min}
     * or {@code h}); {@code fallback} when unset.
     *
     * @throws IllegalArgumentException naming the variable when the value is not a positive duration
     */
    public static Duration durationSetting(Map<String, String> env, String variable, Duration fallback) {
        String value = env.get(variable);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        Matcher matcher = TTL.matcher(value.trim().toLowerCase(Locale.ROOT));
        long amount = matcher.matches() ? Long.parseLong(matcher.group(1)) : 0;
        if (amount <= 0) {
            throw new IllegalArgumentException(variable + " must be a positive duration such as 1800, 45m or 2h,"
                    + " was '" + value + "'");
        }
        String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        return switch (unit) {
            case "h" -> Duration.ofHours(amount);
            case "m", "min" -> Duration.ofMinutes(amount);
            default -> Duration.ofSeconds(amount);
        };
    }

    public Duration heartbeatTtl() {
        return heartbeatTtl;
    }
}
