package dev.baton.lock;

import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.RowKind;
import dev.baton.state.Transaction;
import java.util.List;

/**
 * The lock module's rows, and the steps that change them: each step writes its rows through the
 * transaction and records the {@link LockChange} that says what it meant.
 */
public final class LockRows {

    /** Held files by canonical path, grouped by the holding session's id. */
    public static final RowKind<String, FileLock> FILES = new FileLockColumns();
    /** Held named locks by name. */
    public static final RowKind<String, NamedLock> NAMED = new NamedLockColumns();
    /** Every kind this module owns, for the ledger to load. */
    public static final List<RowKind<?, ?>> KINDS = List.of(FILES, NAMED);

    private LockRows() {
    }

    public static void save(Transaction tx, FileLock lock, boolean newlyAcquired) {
        tx.put(FILES, lock);
        tx.record(new LockChange.LockSaved(lock, newlyAcquired));
    }

    public static void remove(Transaction tx, FileLock lock, ReleaseReason reason, String actor) {
        FileLock previous = tx.remove(FILES, lock.file());
        if (previous != null) {
            tx.record(new LockChange.LockRemoved(previous, reason, actor));
        }
    }

    public static void saveNamed(Transaction tx, NamedLock lock) {
        tx.put(NAMED, lock);
        tx.record(new LockChange.NamedLockSaved(lock));
    }

    public static void removeNamed(Transaction tx, NamedLock lock, ReleaseReason reason) {
        NamedLock previous = tx.remove(NAMED, lock.name());
        if (previous != null) {
            tx.record(new LockChange.NamedLockRemoved(previous, reason));
        }
    }

    /**
     * Removes the session, which ends with what it held; a main session's id is kept as ended. Ending
     * sessions is this module's step because the reason a session ends is the reason its locks go.
     */
    public static void removeSession(Transaction tx, Session session, ReleaseReason reason) {
        Session previous = tx.remove(SessionRows.SESSIONS, session.id());
        if (previous == null) {
            return;
        }
        tx.record(new LockChange.SessionRemoved(previous, reason));
        if (previous.parentId() == null) {
            SessionRows.keepEnded(tx, previous,
                    reason == ReleaseReason.HOLDER_EXITED || reason == ReleaseReason.HEARTBEAT_EXPIRED);
        }
    }
}
