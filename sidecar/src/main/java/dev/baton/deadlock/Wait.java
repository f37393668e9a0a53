package dev.baton.deadlock;

import java.time.Instant;

/**
 * A session waiting for a file. The holder is not part of it: it is read from the lock table when
 * needed, so the wait follows the file when its holder changes.
 */
public record Wait(String waiter, String file, WaitKind kind, Instant since) {
}
