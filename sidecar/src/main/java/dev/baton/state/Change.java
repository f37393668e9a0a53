package dev.baton.state;

import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Session;

/**
 * One durable change to Baton's state. The domain produces them, a {@link Store} commits them in
 * one transaction, and listeners (the event stream) see them in commit order.
 */
public sealed interface Change {

    record SessionSaved(Session session) implements Change {
    }

    record SessionRemoved(Session session, ReleaseReason reason) implements Change {
    }

    record LockSaved(FileLock lock, boolean newlyAcquired) implements Change {
    }

    record LockRemoved(FileLock lock, ReleaseReason reason, String actor) implements Change {
    }

    record NamedLockSaved(NamedLock lock) implements Change {
    }

    record NamedLockRemoved(NamedLock lock, ReleaseReason reason) implements Change {
    }

    record Audited(AuditEntry entry) implements Change {
    }
}
