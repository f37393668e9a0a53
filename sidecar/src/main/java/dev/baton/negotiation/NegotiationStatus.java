package dev.baton.negotiation;

/**
 * Where a negotiation stands. The first three are open: the requester still wants the file.
 * TIMEOUT_ELIGIBLE follows from the clock, so it is computed when read and only recorded by the sweeper.
 */
public enum NegotiationStatus {
    PENDING("pending"),
    DEFERRED("deferred"),
    TIMEOUT_ELIGIBLE("timeout-eligible"),
    RELEASED("released"),
    WITHDRAWN("withdrawn");

    private final String wireName;

    NegotiationStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public boolean isOpen() {
        return this == PENDING || this == DEFERRED || this == TIMEOUT_ELIGIBLE;
    }

    public static NegotiationStatus fromWireName(String name) {
        for (NegotiationStatus status : values()) {
            if (status.wireName.equals(name)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown negotiation status: " + name);
    }
}
