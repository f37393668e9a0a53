package dev.baton.state;

import java.time.Instant;
import java.util.List;

/**
 * Durable storage behind the domain. SQLite is the embedded default; a shared backend (PostgreSQL)
 * implements the same port. {@link #commit} returns only once the changes are durable, because a
 * reply to an agent promises that a killed sidecar restarts with exactly what it acknowledged.
 */
public interface Store extends AutoCloseable {

    Snapshot load();

    /** Commits all changes atomically or none; throws {@link StoreException} when it cannot. */
    void commit(List<Change> changes);

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
