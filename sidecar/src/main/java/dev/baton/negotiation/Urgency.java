package dev.baton.negotiation;

import dev.baton.state.BatonException;
import java.time.Duration;
import java.util.Locale;

/** How soon the requester needs the file; it sets how long the holder has before the request times out. */
public enum Urgency {
    NORMAL("normal", Duration.ofMinutes(10)),
    URGENT("urgent", Duration.ofMinutes(5));

    private final String wireName;
    private final Duration timeout;

    Urgency(String wireName, Duration timeout) {
        this.wireName = wireName;
        this.timeout = timeout;
    }

    public String wireName() {
        return wireName;
    }

    public Duration timeout() {
        return timeout;
    }

    /** Null means normal; anything else but the two names is refused. */
    public static Urgency parse(String name) {
        if (name == null) {
            return NORMAL;
        }
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (Urgency urgency : values()) {
            if (urgency.wireName.equals(wanted)) {
                return urgency;
            }
        }
        throw BatonException.invalid("urgency must be 'normal' or 'urgent', was '" + name + "'");
    }
}
