package dev.baton.dashboard.model;

/** The parts of the board a batch of frames may change, so views rebuild only what moved. */
public enum Topic {
    SESSIONS, LOCKS, NAMED_LOCKS, WAITS, NEGOTIATIONS, DEADLOCKS, MESSAGES, ACTIVITY
}
