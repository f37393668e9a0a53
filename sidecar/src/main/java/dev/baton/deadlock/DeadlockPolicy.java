package dev.baton.deadlock;

import java.util.Locale;

/** What Baton does about a deadlock: tell the victim to release ({@code advise}), or release for it. */
public enum DeadlockPolicy {
    ADVISE("advise"),
    AUTO_RELEASE("auto-release");

    private final String wireName;

    DeadlockPolicy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static DeadlockPolicy fromWireName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (DeadlockPolicy policy : values()) {
            if (policy.wireName.equals(wanted)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown deadlock policy '" + name + "'; one of: advise, auto-release");
    }
}
