package dev.baton.lock;

/** Why a lock ended; every release carries one, in the audit log and the event stream. */
public enum ReleaseReason {
    RELEASED("released"),
    SESSION_ENDED("session-ended"),
    HOLDER_EXITED("holder-exited"),
    HEARTBEAT_EXPIRED("heartbeat-expired"),
    FORCED("forced"),
    AUTO_CLEAN("auto-clean"),
    DEADLOCK("deadlock"),
    /** A finished subagent's lock, passed on to its parent session. */
    HANDED_BACK("handed-back"),
    /** Another machine of the team took the file while this sidecar's lease had lapsed (it was paused or cut off). */
    TAKEN_OVER("taken-over"),
    /** The file's worktree was removed (or its clone deleted): its holds end with it. */
    WORKTREE_REMOVED("worktree-removed");

    private final String wireName;

    ReleaseReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static ReleaseReason fromWireName(String name) {
        for (ReleaseReason reason : values()) {
            if (reason.wireName.equals(name)) {
                return reason;
            }
        }
        throw new IllegalArgumentException("unknown release reason: " + name);
    }
}
