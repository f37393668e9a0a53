package dev.baton.negotiation;

import dev.baton.state.BatonException;
import java.util.Locale;

/** The holder's answer to a negotiation: hand the file over now, or later with an estimate and a reason. */
public sealed interface Answer permits Answer.Release, Answer.Defer {

    int MAX_ETA_MINUTES = 60;

    /** Release the file now; the reason is optional. */
    record Release(String reason) implements Answer {
        public Release {
            reason = Reasons.optional(reason);
        }
    }

    /** Keep the file for up to {@code etaMinutes} more minutes (1 to 60), for the stated reason. */
    record Defer(int etaMinutes, String reason) implements Answer {
        public Defer {
            if (etaMinutes < 1 || etaMinutes > MAX_ETA_MINUTES) {
                throw BatonException.invalid("eta_minutes must be between 1 and " + MAX_ETA_MINUTES + ", was " + etaMinutes
                        + "; if you need longer, release the file and take it again later");
            }
            reason = Reasons.require(reason, "a deferral needs a reason the requester can judge");
        }
    }

    /** Builds an answer from its wire parts: {@code release}, or {@code defer} with eta and reason. */
    static Answer of(String kind, Integer etaMinutes, String reason) {
        String wanted = kind == null ? "" : kind.trim().toLowerCase(Locale.ROOT);
        switch (wanted) {
            case "release" -> {
                if (etaMinutes != null) {
                    throw BatonException.invalid("eta_minutes belongs to a deferral; 'release' frees the file now");
                }
                return new Release(reason);
            }
            case "defer" -> {
                if (etaMinutes == null) {
                    throw BatonException.invalid("a deferral needs eta_minutes (1 to " + MAX_ETA_MINUTES + ")");
                }
                return new Defer(etaMinutes, reason);
            }
            default -> throw BatonException.invalid("the answer must be 'release' or 'defer', was '" + kind + "'");
        }
    }
}
