package dev.baton.state;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Group commit. Transactions are applied to memory one at a time under the ledger monitor and queued
 * here; whichever waiting writer gets the committer role writes everything queued in one SQLite
 * transaction, so concurrent writers share one commit instead of queueing behind each other's. No
 * writer returns before its changes are durable. If a commit fails, every queued transaction is
 * undone in reverse order (later ones may build on earlier ones) and each writer gets the failure.
 */
final class CommitQueue {

    private final ReentrantLock monitor;
    private final Condition settled;
    private final Store store;
    private final List<Consumer<List<Change>>> listeners;
    private final ReentrantLock committer = new ReentrantLock();
    private List<Pending> queued = new ArrayList<>();

    CommitQueue(ReentrantLock monitor, Store store, List<Consumer<List<Change>>> listeners) {
        this.monitor = monitor;
        this.settled = monitor.newCondition();
        this.store = store;
        this.listeners = listeners;
    }

    /** One queued transaction; its state changes only under the monitor. */
    static final class Pending {
        private final Transaction tx;
        private final List<Change> changes;
        private boolean durable;
        private StoreException failure;

        Pending(Transaction tx) {
            this.tx = tx;
            this.changes = List.copyOf(tx.changes());
        }
    }

    /** Called under the monitor, right after the transaction was applied to memory. */
    Pending enqueue(Transaction tx) {
        Pending pending = new Pending(tx);
        queued.add(pending);
        return pending;
    }

    /** Called without the monitor: returns once the transaction is durable, or throws its failure. */
    void awaitDurable(Pending pending) {
        while (true) {
            monitor.lock();
            try {
                if (pending.durable) {
                    return;
                }
                if (pending.failure != null) {
                    throw pending.failure;
                }
            } finally {
                monitor.unlock();
            }
            if (committer.tryLock()) {
                try {
                    flush();
                } finally {
                    committer.unlock();
                }
                continue;
            }
            monitor.lock();
            try {
                if (!pending.durable && pending.failure == null) {
                    // Bounded so a commit that finished between the checks above is never waited out.
                    settled.await(1, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                // The transaction is in memory already; its durability must be awaited, not abandoned.
                Thread.currentThread().interrupt();
            } finally {
                monitor.unlock();
            }
        }
    }

    /** Commits everything queued; called by the committer only. */
    void flush() {
        List<Pending> batch;
        monitor.lock();
        try {
            batch = queued;
            queued = new ArrayList<>();
        } finally {
            monitor.unlock();
        }
        if (batch.isEmpty()) {
            return;
        }
        List<Change> changes = new ArrayList<>();
        batch.forEach(pending -> changes.addAll(pending.changes));
        StoreException failure = null;
        try {
            store.commit(changes);
        } catch (StoreException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new StoreException("the store failed: " + e.getMessage(), e);
        }
        monitor.lock();
        try {
            if (failure == null) {
                for (Pending pending : batch) {
                    pending.durable = true;
                    listeners.forEach(listener -> listener.accept(pending.changes));
                }
            } else {
                List<Pending> undone = new ArrayList<>(batch);
                undone.addAll(queued);
                queued = new ArrayList<>();
                for (int i = undone.size() - 1; i >= 0; i--) {
                    undone.get(i).tx.rollback();
                    undone.get(i).failure = failure;
                }
            }
            settled.signalAll();
        } finally {
            monitor.unlock();
        }
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
