package dev.baton.dashboard.viewmodel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Carries items from network threads to the FX thread in batches, starting each batch at least
 * {@code interval} after the previous one ended: a burst of thousands of events becomes a few UI
 * updates, while the first event after a quiet spell is shown at once. Once closed it takes and shows
 * nothing more: a frame still arriving from the network, or a batch the FX thread runs after the window
 * closed, is dropped.
 */
public final class UpdateBatcher<T> implements AutoCloseable {

    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(50);

    private final ConcurrentLinkedQueue<T> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final long intervalNanos;
    private final Executor target;
    private final Consumer<List<T>> apply;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "baton-ui-batch");
        thread.setDaemon(true);
        return thread;
    });
    private volatile long lastFlushNanos = System.nanoTime() - Long.MAX_VALUE / 4;
    private volatile boolean closed;

    /** @param target where batches are applied, e.g. {@code Platform::runLater} */
    public UpdateBatcher(Duration interval, Executor target, Consumer<List<T>> apply) {
        this.intervalNanos = interval.toNanos();
        this.target = target;
        this.apply = apply;
    }

    /** Thread-safe; never blocks. */
    public void offer(T item) {
        if (closed) {
            return;
        }
        queue.add(item);
        if (scheduled.compareAndSet(false, true)) {
            flushIn(Math.max(0, lastFlushNanos + intervalNanos - System.nanoTime()));
        }
    }

    private void flushIn(long nanos) {
        try {
            timer.schedule(() -> target.execute(this::flush), nanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closedMeanwhile) {
            // close() ran between the check and here: nothing is shown any more.
        }
    }

    private void flush() {
        if (closed) {
            return;
        }
        long early = lastFlushNanos + intervalNanos - System.nanoTime();
        if (early > 0) {
            flushIn(early);
            return;
        }
        // Cleared before draining: an item offered while we drain schedules the next batch.
        scheduled.set(false);
        List<T> batch = new ArrayList<>();
        for (T item = queue.poll(); item != null; item = queue.poll()) {
            batch.add(item);
        }
        if (!batch.isEmpty()) {
            // The interval counts from the end of a batch, so the FX thread gets it whole to
            // render and handle input, however long applying the batch took.
            try {
                apply.accept(batch);
            } finally {
                lastFlushNanos = System.nanoTime();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        queue.clear();
    }
}
