package dev.baton.lock;

import dev.baton.session.ProcessIdentity;
import java.time.Instant;

/** An exclusive lock on a name rather than a file (a job id, a migration), held by a process. */
public record NamedLock(String name, ProcessIdentity holder, String host, Instant acquiredAt, String purpose) {
}
