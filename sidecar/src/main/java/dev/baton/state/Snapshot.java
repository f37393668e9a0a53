package dev.baton.state;

import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.session.Session;
import java.util.List;

/** Everything a store holds that the in-memory state is rebuilt from at start-up. */
public record Snapshot(List<Session> sessions, List<FileLock> locks, List<NamedLock> namedLocks) {
}
