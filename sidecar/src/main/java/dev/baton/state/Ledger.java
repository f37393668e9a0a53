package dev.baton.state;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The single writer: every change to Baton's state runs here, one at a time, and is durable in the
 * store before the caller gets an answer (concurrent writers share one commit: {@link CommitQueue}).
 * A transaction that changes nothing is answered once the changes it saw are durable too. Reads
 * ({@link #read}) see memory as it is, durable or not: what promises something goes through a write.
 * Waiters park on {@link #awaitChange} and wake on the next change; listeners see each durable
 * transaction's changes in commit order.
 */
public final class Ledger implements AutoCloseable {

    private final ReentrantLock monitor = new ReentrantLock();
    private final Condition changed = monitor.newCondition();
    private final Store store;
    private final Clock clock;
    private final World world;
    private final List<Consumer<List<Change>>> listeners = new CopyOnWriteArrayList<>();
    private final List<Interceptor> interceptors = new CopyOnWriteArrayList<>();
    private final CommitQueue commits;
    private final List<Interceptor> recorders = new CopyOnWriteArrayList<>();
    private final List<Runnable> closeHooks = new CopyOnWriteArrayList<>();
    private long version;

    /** Loads every row of these kinds from the store; the world holds those kinds and no others. */
    public Ledger(Store store, Clock clock, List<RowKind<?, ?>> kinds) {
        this.store = store;
        this.clock = clock;
        this.world = new World(store, kinds);
        this.commits = new CommitQueue(monitor, store, listeners);
    }

    public Clock clock() {
        return clock;
    }

    public Store store() {
        return store;
    }

    public void addListener(Consumer<List<Change>> listener) {
        listeners.add(listener);
    }

    /**
     * Runs inside every transaction that changed something, after its work and before the commit, so
     * a module can react in the same transaction (a negotiation resolves when its file is released,
     * an event row is written with the change it describes). It may add changes through {@code tx};
     * those are shown to the interceptors registered after it, not to itself.
     */
    @FunctionalInterface
    public interface Interceptor {
        void beforeCommit(Transaction tx, List<Change> changes);
    }

    public void addInterceptor(Interceptor interceptor) {
        interceptors.add(interceptor);
    }

    /**
     * Like an interceptor, but runs after all of them and sees every change of the transaction,
     * including those interceptors added: the event stream records the whole transaction this way.
     * A recorder may only add changes that alter nothing (event rows); other recorders don't see them.
     */
    public void addRecorder(Interceptor recorder) {
        recorders.add(recorder);
    }

    /** Runs when the ledger closes, before the store does: modules stop their threads here. */
    public void addCloseHook(Runnable hook) {
        closeHooks.add(hook);
    }

    public <T> T read(Function<World, T> view) {
        monitor.lock();
        try {
            return view.apply(world);
        } finally {
            monitor.unlock();
        }
    }

    /** Runs {@code work} as one transaction; on any failure memory is rolled back and nothing is committed. */
    public <T> T write(Function<Transaction, T> work) {
        return writeTracked(work).value();
    }

    /** A write's result with the ledger version right after it, for callers that then wait for the next change. */
    public record Tracked<T>(T value, long version) {
    }

    public <T> Tracked<T> writeTracked(Function<Transaction, T> work) {
        CommitQueue.Pending pending = null;
        CommitQueue.Pending basis = null;
        T result;
        long after;
        monitor.lock();
        try {
            Transaction tx = new Transaction(world, clock.instant().truncatedTo(ChronoUnit.MILLIS));
            try {
                result = work.apply(tx);
                if (!tx.changedNothing()) {
                    for (Interceptor interceptor : interceptors) {
                        interceptor.beforeCommit(tx, List.copyOf(tx.changes()));
                    }
                    List<Change> all = List.copyOf(tx.changes());
                    for (Interceptor recorder : recorders) {
                        recorder.beforeCommit(tx, all);
                    }
                }
            } catch (RuntimeException | Error e) {
                tx.rollback();
                throw e;
            }
            if (!tx.changedNothing()) {
                version++;
                pending = commits.enqueue(tx, version);
                changed.signalAll();
            } else {
                basis = commits.basis();
            }
            after = version;
        } finally {
            monitor.unlock();
        }
        if (pending != null) {
            commits.awaitDurable(pending);
        } else if (basis != null) {
            // Nothing changed, but the answer may rest on a change not yet durable ("this file is yours
            // already" after a parallel call took it): it is given once that change is, or not at all.
            commits.awaitBasis(basis);
        }
        return new Tracked<>(result, after);
    }

    public long version() {
        monitor.lock();
        try {
            return version;
        } finally {
            monitor.unlock();
        }
    }

    /**
     * Waits until a commit after {@code seenVersion}, or until {@code deadlineNanos} (System.nanoTime).
     * Taking the version before the attempt and waiting on it here means no commit is missed between them.
     */
    public boolean awaitChange(long seenVersion, long deadlineNanos) throws InterruptedException {
        monitor.lock();
        try {
            while (version == seenVersion) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
            }
            return true;
        } finally {
            monitor.unlock();
        }
    }

    /** Wakes all waiters, e.g. when a condition outside the store (a process exiting) may have changed. */
    public void nudge() {
        monitor.lock();
        try {
            changed.signalAll();
        } finally {
            monitor.unlock();
        }
    }

    @Override
    public void close() {
        closeHooks.forEach(Runnable::run);
        commits.drain();
        monitor.lock();
        try {
            store.close();
        } finally {
            monitor.unlock();
        }
    }
}
