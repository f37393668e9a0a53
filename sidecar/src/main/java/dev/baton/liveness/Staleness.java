package dev.baton.liveness;

/** Whether a holder may keep its locks: its process is gone, or it has been silent too long. */
public enum Staleness {
    FRESH, PROCESS_EXITED, HEARTBEAT_EXPIRED
}
