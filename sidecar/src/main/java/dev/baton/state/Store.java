package dev.baton.state;

import java.time.Instant;
import java.util.List;

/**
 * Durable storage behind the ledger. SQLite is the embedded default; a shared backend (PostgreSQL)
 * implements the same port. A store knows no entity: it keeps rows of the {@link RowKind}s it is given,
 * each kind a table of the kind's columns keyed by its first {@link RowKind#keyColumns()} of them, plus
 * two append-only logs of its own, the audit trail and the events.
 *
 * <p>{@link #commit} returns only once the batch is durable, because a reply to an agent promises that a
 * killed sidecar restarts with exactly what it acknowledged. Only one commit runs at a time, but reads of
 * the logs may come from other threads meanwhile.
 */
public interface Store extends AutoCloseable {

    /** Every stored row of this kind, in any order; called once per kind when the ledger starts. */
    <K, R> List<R> load(RowKind<K, R> kind);

    /**
     * Writes the whole batch atomically or nothing of it: its row writes in order (an upsert inserts the row
     * or replaces the one with its key; a delete of a missing row is no error), then its audit entries (each
     * gets the next id), its events (with their own sequence numbers), and the deletion of the events through
     * {@link Batch#eventsPrunedThrough()}. Throws {@link StoreException} when it cannot.
     */
    void commit(Batch batch);

    /** The newest audit entries for one file or named lock, newest first. */
    default List<AuditEntry> history(String file, int limit) {
        return history(file, Long.MAX_VALUE, limit);
    }

    /** The audit entries for one file or named lock with an id below {@code beforeId}, newest first: a page of it. */
    List<AuditEntry> history(String file, long beforeId, int limit);

    /**
     * Deletes at most {@code batch} of the oldest audit entries that are older than {@code before} or beyond the
     * newest {@code keepRows}; the newest entry always stays, so ids keep growing. Returns how many went.
     */
    int pruneAudit(Instant before, long keepRows, int batch);

    /** All audit entries with an id above {@code afterId}, oldest first, at most {@code limit}. */
    List<AuditEntry> auditSince(long afterId, int limit);

    /** Events with a sequence number above {@code afterSeq}, oldest first, at most {@code limit}. */
    List<EventRecord> eventsAfter(long afterSeq, int limit);

    /** The lowest retained event sequence number, 0 when none is kept. */
    long oldestEventSeq();

    /** The highest event sequence number ever written (it survives pruning), 0 when none. */
    long newestEventSeq();

    String describe();

    @Override
    void close();
}
