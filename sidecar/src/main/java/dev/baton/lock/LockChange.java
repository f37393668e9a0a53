package dev.baton.lock;

import dev.baton.session.Session;
import dev.baton.state.Change;

/** What the lock module's steps mean, for the listeners: locks taken and let go, and sessions ended with them. */
public sealed interface LockChange extends Change {

    record LockSaved(FileLock lock, boolean newlyAcquired) implements LockChange {
    }

    record LockRemoved(FileLock lock, ReleaseReason reason, String actor) implements LockChange {
    }

    record NamedLockSaved(NamedLock lock) implements LockChange {
    }

    record NamedLockRemoved(NamedLock lock, ReleaseReason reason) implements LockChange {
    }

    /** A session ended; its locks go (or went) for the same reason. */
    record SessionRemoved(Session session, ReleaseReason reason) implements LockChange {
    }
}
