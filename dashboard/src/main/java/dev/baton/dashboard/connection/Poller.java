package dev.baton.dashboard.connection;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Asks the sidecar for what its event stream does not carry, every few seconds, on a thread of its own: other
 * machines' locks (the stream carries only this sidecar's changes), which held files carry uncommitted work (git's
 * answer, not an event). One request at a time; the next one is scheduled when the last one has answered, so a
 * slow sidecar is never asked twice at once.
 */
public final class Poller<T> implements AutoCloseable {

    private final Supplier<CompletableFuture<T>> fetch;
    private final Duration every;
    private final Consumer<T> onReply;
    private final Consumer<Throwable> onFailure;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "baton-poll");
        thread.setDaemon(true);
        return thread;
    });
    private boolean inFlight;
    private boolean soon;
    private boolean closed;
    private ScheduledFuture<?> next;

    /**
     * @param onReply   each reply, off the FX thread
     * @param onFailure why a poll failed (the sidecar is down, it timed out), off the FX thread
     */
    public Poller(Supplier<CompletableFuture<T>> fetch, Duration every, Consumer<T> onReply,
                      Consumer<Throwable> onFailure) {
        this.fetch = fetch;
        this.every = every;
        this.onReply = onReply;
        this.onFailure = onFailure;
    }

    /** Polls now, then every interval until {@link #close()}. */
    public synchronized void start() {
        schedule(Duration.ZERO);
    }

    /**
     * Polls as soon as the request in flight (if any) has answered, e.g. when this machine's locks changed, so what
     * is shown of them does not wait for the interval.
     */
    public synchronized void pollSoon() {
        if (closed) {
            return;
        }
        if (inFlight) {
            soon = true;
        } else {
            schedule(Duration.ZERO);
        }
    }

    private synchronized void schedule(Duration delay) {
        if (closed) {
            return;
        }
        if (next != null) {
            next.cancel(false);
        }
        next = scheduler.schedule(this::poll, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void poll() {
        CompletableFuture<T> reply;
        synchronized (this) {
            if (closed || inFlight) {
                return;
            }
            inFlight = true;
            soon = false;
        }
        try {
            reply = fetch.get();
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((team, error) -> {
            synchronized (this) {
                inFlight = false;
                if (closed) {
                    return;
                }
            }
            if (error != null) {
                onFailure.accept(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            } else {
                onReply.accept(team);
            }
            synchronized (this) {
                schedule(soon ? Duration.ZERO : every);
            }
        });
    }

    /** Stops polling; a reply still on its way is dropped. */
    @Override
    public synchronized void close() {
        closed = true;
        if (next != null) {
            next.cancel(false);
        }
        scheduler.shutdownNow();
    }
}
