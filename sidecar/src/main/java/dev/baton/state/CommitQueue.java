package dev.baton.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Group commit. Transactions are applied to memory one at a time under the ledger monitor and queued
 * here; whichever waiting writer gets the committer role writes everything queued in one SQLite
 * transaction, so concurrent writers share one commit instead of queueing behind each other's. No
 * writer returns before its changes are durable. If a commit fails, every queued transaction is
 * undone in reverse order (later ones may build on earlier ones) and each writer gets the failure.
 *
 * <p>A waiting writer parks on its own transaction, never on the ledger monitor: it is woken when its
 * commit settles, or when the committer role is handed to it because its transaction missed the
 * batch being written.
 */
final class CommitQueue {

    /** Wake-ups are exact; this bound only limits the cost of a lost one. */
    private static final long PARK_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Commits one committer writes in a row at most before it hands the role over and answers its caller. */
    private static final int MAX_ROUNDS = 4;

    private final ReentrantLock monitor;
    private final Store store;
    private final List<Consumer<List<Change>>> listeners;
    private final ReentrantLock committer = new ReentrantLock();
    private List<Pending> queued = new ArrayList<>();
    /** The transaction enqueued last; commits are in queue order, so once it is settled all before it are. */
    private Pending last;

    CommitQueue(ReentrantLock monitor, Store store, List<Consumer<List<Change>>> listeners) {
        this.monitor = monitor;
        this.store = store;
        this.listeners = listeners;
    }

    /** One queued transaction, the thread that waits for it, and the readers whose answers rest on it. */
    static final class Pending {
        private final Transaction tx;
        private final long version;
        private final List<Change> changes;
        private final List<RowWrite> writes;
        private final Thread writer = Thread.currentThread();
        private final Queue<Thread> readers = new ConcurrentLinkedQueue<>();
        /** Null while queued; then {@link #DURABLE} or the failure. Published by the volatile write. */
        private volatile Object outcome;

        Pending(Transaction tx, long version) {
            this.tx = tx;
            this.version = version;
            this.changes = List.copyOf(tx.changes());
            this.writes = List.copyOf(tx.writes());
        }
    }

    private static final Object DURABLE = new Object();

    /** Called under the monitor, right after the transaction was applied to memory. */
    Pending enqueue(Transaction tx, long version) {
        Pending pending = new Pending(tx, version);
        queued.add(pending);
        last = pending;
        return pending;
    }

    /**
     * Called under the monitor by a transaction that changed nothing: the newest transaction not yet
     * durable, whose changes its answer may rest on (a lock taken a moment ago by a parallel call of the
     * same session), or null when everything in memory is durable.
     */
    Pending basis() {
        return last != null && last.outcome == null ? last : null;
    }

    /** Called without the monitor: returns once the transaction is durable, or throws its failure. */
    void awaitDurable(Pending pending) {
        awaitSettled(pending);
        if (pending.outcome instanceof StoreException failure) {
            throw failure;
        }
    }

    /**
     * For a transaction that changed nothing but read what {@code basis} changed: returns once that is
     * durable; throws its failure if it was undone instead, since the answer would then rest on nothing.
     */
    void awaitBasis(Pending basis) {
        basis.readers.add(Thread.currentThread());
        awaitDurable(basis);
    }

    private void awaitSettled(Pending pending) {
        boolean interrupted = false;
        while (pending.outcome == null) {
            if (committer.tryLock()) {
                try {
                    // While the committer is awake it also writes what was queued during its commit: handing
                    // that over would put a parked thread's wake-up (a scheduler slice on a busy machine) in
                    // the path of every commit. The bound keeps its own caller from waiting on others for long.
                    for (int round = 0; round < MAX_ROUNDS && flush(); round++) {
                        // keeps committing while transactions arrive
                    }
                } finally {
                    committer.unlock();
                }
                handOver();
            } else {
                LockSupport.parkNanos(this, PARK_BOUND_NANOS);
                // The transaction is in memory already; its durability must be awaited, not abandoned.
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** After a flush: what was queued meanwhile belongs to a writer that is parked; it commits next. */
    private void handOver() {
        Thread next = null;
        monitor.lock();
        try {
            if (!queued.isEmpty()) {
                next = queued.get(0).writer;
            }
        } finally {
            monitor.unlock();
        }
        if (next != null) {
            LockSupport.unpark(next);
        }
    }

    /** Commits everything queued; called by the committer only. */
    boolean flush() {
        List<Pending> batch;
        monitor.lock();
        try {
            batch = queued;
            queued = new ArrayList<>();
        } finally {
            monitor.unlock();
        }
        if (batch.isEmpty()) {
            return false;
        }
        StoreException failure = null;
        try {
            store.commit(batchOf(batch));
        } catch (StoreException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new StoreException("the store failed: " + e.getMessage(), e);
        }
        List<Pending> settled;
        monitor.lock();
        try {
            if (failure == null) {
                settled = batch;
                for (Pending pending : batch) {
                    listeners.forEach(listener -> listener.accept(pending.changes));
                    pending.outcome = DURABLE;
                }
            } else {
                settled = new ArrayList<>(batch);
                settled.addAll(queued);
                queued = new ArrayList<>();
                for (int i = settled.size() - 1; i >= 0; i--) {
                    settled.get(i).tx.rollback();
                    settled.get(i).outcome = failure;
                }
            }
        } finally {
            monitor.unlock();
        }
        Thread self = Thread.currentThread();
        for (Pending pending : settled) {
            if (pending.writer != self) {
                LockSupport.unpark(pending.writer);
            }
            pending.readers.forEach(LockSupport::unpark);
        }
        return true;
    }

    /** The rows, audit entries and events of the queued transactions, in order. */
    private static Batch batchOf(List<Pending> queued) {
        List<RowWrite> rows = new ArrayList<>();
        List<AuditEntry> audit = new ArrayList<>();
        List<EventRecord> events = new ArrayList<>();
        long prunedThrough = 0;
        for (Pending pending : queued) {
            rows.addAll(pending.writes);
            for (Change change : pending.changes) {
                if (change instanceof Change.Audited audited) {
                    audit.add(audited.entry());
                } else if (change instanceof Change.EventRecorded recorded) {
                    events.add(recorded.event());
                } else if (change instanceof Change.EventsPruned pruned) {
                    prunedThrough = Math.max(prunedThrough, pruned.throughSeq());
                }
            }
        }
        return new Batch(queued.get(queued.size() - 1).version, rows, audit, events, prunedThrough);
    }

    /** Commits what is queued before the store closes. */
    void drain() {
        committer.lock();
        try {
            flush();
        } finally {
            committer.unlock();
        }
    }
}
