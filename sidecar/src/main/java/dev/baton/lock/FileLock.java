package dev.baton.lock;

import java.time.Instant;

/**
 * One held file: exactly one row per canonical path. {@code editInFlight} is true between an
 * agent's PreToolUse and PostToolUse, so turn-end release never frees a file mid-edit.
 */
public record FileLock(String file, String sessionId, Instant acquiredAt, Instant lastEditAt, boolean editInFlight) {

    public FileLock withEditStarted() {
        return new FileLock(file, sessionId, acquiredAt, lastEditAt, true);
    }

    public FileLock withEditDone(Instant at) {
        return new FileLock(file, sessionId, acquiredAt, at, false);
    }
}
