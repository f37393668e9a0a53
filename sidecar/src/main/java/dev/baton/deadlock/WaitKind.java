package dev.baton.deadlock;

/** Why a session counts as waiting for a file: it is in a waiting acquire, negotiating, or was just denied an edit. */
public enum WaitKind {
    ACQUIRE("acquire"),
    NEGOTIATION("negotiation"),
    DENIED("denied");

    private final String wireName;

    WaitKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
