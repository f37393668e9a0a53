package dev.baton.dashboard.protocol;

import java.time.Instant;

/** An exclusive lock on a name (not a file), e.g. a job run by {@code baton exclusive}. */
public record NamedLockInfo(String name, Long pid, String alive, String host, Instant since, String purpose) {
}
