package dev.baton.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import dev.baton.state.EventRecord;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One connected client: stored events it missed (read page by page), then live frames from a bounded
 * queue, sent one at a time. Offering a frame never blocks; a client that falls a whole queue behind
 * is told to resync and closed, so a stalled reader holds neither memory nor anyone else.
 */
public final class Subscriber {

    /** Reads stored events after a sequence number; the store is shared, so this goes through the ledger. */
    interface Pages {
        List<EventRecord> after(long seq, int limit);
    }

    static final int PAGE = 500;
    /** Sends that complete at once are looped; after this many the pump yields its thread to other clients. */
    private static final int BURST = 64;

    private final FrameSink sink;
    private final int capacity;
    private final Executor executor;
    private final Pages pages;
    private final Consumer<Subscriber> onClosed;
    private final ArrayDeque<String> replay = new ArrayDeque<>();
    private final ArrayDeque<String> live = new ArrayDeque<>();
    private long cursor;
    private long target;
    private boolean busy;
    private boolean closing;
    private boolean closed;

    Subscriber(FrameSink sink, int capacity, Executor executor, Pages pages, Consumer<Subscriber> onClosed) {
        this.sink = sink;
        this.capacity = capacity;
        this.executor = executor;
        this.pages = pages;
        this.onClosed = onClosed;
    }

    /** Starts with a snapshot covering events up to {@code seq}; live events follow. */
    synchronized void startWithSnapshot(String frame, long seq) {
        replay.add(frame);
        cursor = seq;
        target = seq;
        kick();
    }

    /** Starts by replaying the stored events after {@code since} up to {@code last}; live events follow. */
    synchronized void startAfter(long since, long last) {
        cursor = since;
        target = last;
        kick();
    }

    /** A committed event; called by the ledger's listener, so it only queues. */
    synchronized void offer(long seq, String frame) {
        if (closing || closed || seq <= target) {
            return;
        }
        if (live.size() >= capacity) {
            resync("this client read too slowly: " + live.size() + " events were queued for it; reconnect with since");
            return;
        }
        live.add(frame);
        kick();
    }

    /** A frame from the client: only {"type":"ping"} means something. */
    public void received(String text) {
        try {
            JsonNode message = Json.mapper().readTree(text);
            if (message != null && "ping".equals(message.path("type").asText())) {
                synchronized (this) {
                    if (!closing && !closed) {
                        live.add(Frames.PONG);
                        kick();
                    }
                }
            }
        } catch (IOException e) {
            // anything else a client sends is ignored, as the protocol says
        }
    }

    /** Pings a quiet connection so it stays open; a stuck one is left to its idle timeout. */
    void keepAlive() {
        synchronized (this) {
            if (closed || busy) {
                return; // a connection that is sending is not idle
            }
        }
        try {
            sink.ping();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /** The connection is gone. */
    public void cancel() {
        synchronized (this) {
            closed = true;
            replay.clear();
            live.clear();
        }
        onClosed.accept(this);
    }

    private void kick() {
        if (!busy && !closed) {
            busy = true;
            executor.execute(this::pump);
        }
    }

    /** Drops the backlog, leaves the stream at once, and closes after telling the client why. */
    private void resync(String reason) {
        replay.clear();
        live.clear();
        cursor = target;
        closing = true;
        replay.add(Frames.resync(reason));
        onClosed.accept(this);
        kick();
    }

    private void pump() {
        for (int sent = 0; sent < BURST; sent++) {
            String frame = next();
            if (frame == null) {
                return;
            }
            Send send = new Send();
            try {
                sink.send(frame, send::completed, this::failed);
            } catch (RuntimeException e) {
                failed(e);
                return;
            }
            if (send.continuesLater()) {
                return;
            }
        }
        executor.execute(this::pump);
    }

    private synchronized String next() {
        if (closed) {
            busy = false;
            return null;
        }
        String frame = replay.poll();
        if (frame != null) {
            return frame;
        }
        if (cursor < target) {
            executor.execute(this::loadPage); // stays busy: live frames wait until the replay caught up
            return null;
        }
        frame = live.poll();
        if (frame != null) {
            return frame;
        }
        busy = false;
        if (closing) {
            closed = true;
            sink.close("resync");
            onClosed.accept(this);
        }
        return null;
    }

    private void loadPage() {
        long from;
        long to;
        synchronized (this) {
            from = cursor;
            to = target;
        }
        List<EventRecord> page;
        String failure = null;
        try {
            page = pages.after(from, (int) Math.min(PAGE, to - from));
        } catch (RuntimeException e) {
            page = List.of();
            failure = "the stored events could not be read (" + e.getMessage() + "); reconnect with since";
        }
        synchronized (this) {
            if (cursor == from && !closing) {
                long expected = from + 1;
                for (EventRecord event : page) {
                    if (event.seq() != expected || event.seq() > to) {
                        break;
                    }
                    replay.add(Frames.event(event));
                    expected++;
                }
                cursor = expected - 1;
                if (cursor == from) {
                    resync(failure != null ? failure
                            : "the events after " + from + " are no longer kept; reconnect without since for a snapshot");
                }
            }
        }
        pump();
    }

    private void failed(Throwable cause) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            busy = false;
            replay.clear();
            live.clear();
        }
        onClosed.accept(this);
        sink.close("send failed: " + cause.getMessage());
    }

    /**
     * One send's hand-over: whichever of the sender and the completion callback comes second continues
     * the pump, so completions that happen inside {@code send} loop instead of growing the stack.
     */
    private final class Send {
        private static final int PENDING = 0;
        private static final int COMPLETED_EARLY = 1;
        private static final int RETURNED = 2;
        private final AtomicInteger state = new AtomicInteger(PENDING);

        void completed() {
            if (!state.compareAndSet(PENDING, COMPLETED_EARLY)) {
                pump();
            }
        }

        boolean continuesLater() {
            return state.compareAndSet(PENDING, RETURNED);
        }
    }
}
