package dev.baton.liveness;

/** What is known of a holder's process. UNKNOWN (no process recorded, or not inspectable) counts as alive. */
public enum Liveness {
    ALIVE, EXITED, UNKNOWN;

    public boolean isGone() {
        return this == EXITED;
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
