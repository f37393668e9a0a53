package dev.baton.dashboard.connection;

import dev.baton.dashboard.protocol.Frame;
import dev.baton.dashboard.protocol.ProtocolException;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The dashboard's subscription to {@code /v1/events}: connects, hands every frame in sequence to
 * {@code frames} (on a network thread), and reconnects with backoff, resuming from the last sequence
 * number so nothing is missed. All of it runs off the FX thread.
 */
public final class EventStream implements AutoCloseable {

    /** After this many failed attempts in a row the status bar says offline rather than reconnecting. */
    static final int FAILURES_BEFORE_OFFLINE = 5;
    private static final Duration PING_EVERY = Duration.ofSeconds(10);
    private static final Duration SILENCE_LIMIT = Duration.ofSeconds(30);

    private final SidecarLocator locator;
    private final Consumer<Frame> frames;
    private final Consumer<ConnectionStatus> statuses;
    private final Backoff backoff;
    private final StreamCursor cursor = new StreamCursor();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "baton-events");
        thread.setDaemon(true);
        return thread;
    });

    // Written on the scheduler thread; read by socket callbacks to drop those of superseded sockets.
    private volatile int generation;
    private volatile WebSocket socket;
    private volatile boolean closed;
    private volatile boolean everConnected;
    private volatile long lastFrameNanos;
    private CompletableFuture<WebSocket> pendingPing = CompletableFuture.completedFuture(null);

    public EventStream(SidecarLocator locator, Backoff backoff, Consumer<Frame> frames, Consumer<ConnectionStatus> statuses) {
        this.locator = locator;
        this.backoff = backoff;
        this.frames = frames;
        this.statuses = statuses;
    }

    public void start() {
        statuses.accept(ConnectionStatus.connecting(locator.describe()));
        scheduler.execute(this::connect);
        long ping = PING_EVERY.toMillis();
        scheduler.scheduleWithFixedDelay(this::keepAlive, ping, ping, TimeUnit.MILLISECONDS);
    }

    /** The sequence number a reconnection would resume from; null before the first snapshot. */
    public Long since() {
        return cursor.since();
    }

    private void connect() {
        if (closed) {
            return;
        }
        int attempt = ++generation;
        SidecarAddress address;
        try {
            address = locator.locate();
        } catch (SidecarUnavailableException e) {
            failed(attempt, e.getMessage(), true);
            return;
        }
        http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + address.token())
                .connectTimeout(Duration.ofSeconds(3))
                .buildAsync(address.events(cursor.since()), new Listener(attempt))
                .whenComplete((ws, error) -> {
                    if (error != null) {
                        later(() -> failed(attempt, describe(error, address), false));
                    }
                });
    }

    private void failed(int attempt, String reason, boolean noSidecar) {
        if (closed || attempt != generation) {
            return;
        }
        // Retire this attempt at once: the abort below makes its socket report once more.
        generation++;
        WebSocket old = socket;
        socket = null;
        if (old != null) {
            old.abort();
        }
        Duration delay = backoff.nextDelay();
        int failures = backoff.failures();
        ConnectionState state;
        if (everConnected && failures < FAILURES_BEFORE_OFFLINE) {
            state = ConnectionState.RECONNECTING;
        } else if (noSidecar || failures >= FAILURES_BEFORE_OFFLINE) {
            state = ConnectionState.OFFLINE;
        } else {
            state = ConnectionState.CONNECTING;
        }
        statuses.accept(new ConnectionStatus(state, reason, delay));
        scheduler.schedule(this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void keepAlive() {
        WebSocket current = socket;
        if (current == null || closed) {
            return;
        }
        if (System.nanoTime() - lastFrameNanos > SILENCE_LIMIT.toNanos()) {
            failed(generation, "the sidecar stopped answering for " + SILENCE_LIMIT.toSeconds() + " s", false);
            return;
        }
        if (pendingPing.isDone()) {
            pendingPing = current.sendText("{\"type\":\"ping\"}", true);
        }
    }

    private void received(int attempt, WebSocket ws, String text) {
        if (closed || attempt != generation) {
            return;
        }
        lastFrameNanos = System.nanoTime();
        Frame frame;
        try {
            frame = Frame.parse(text);
        } catch (ProtocolException e) {
            cursor.forget();
            later(() -> failed(attempt, "unreadable frame from the sidecar: " + e.getMessage(), false));
            return;
        }
        StreamCursor.Verdict verdict = cursor.accept(frame);
        switch (verdict) {
            case APPLY:
                backoff.reset();
                frames.accept(frame);
                break;
            case RESUME:
                later(() -> failed(attempt, frame instanceof Frame.Resync
                        ? "the sidecar asked to resync" : "missed events after " + cursor.since(), false));
                break;
            case RESTART:
                later(() -> failed(attempt, "the sidecar's event numbering restarted; reloading", false));
                break;
            default:
                break;
        }
    }

    /** Runs on the stream's thread; callbacks arriving after close are dropped. */
    private void later(Runnable task) {
        if (closed) {
            return;
        }
        try {
            scheduler.execute(task);
        } catch (RejectedExecutionException e) {
            // closed in the meantime: nothing left to do
        }
    }

    private static String describe(Throwable error, SidecarAddress address) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof WebSocketHandshakeException) {
            int status = ((WebSocketHandshakeException) cause).getResponse().statusCode();
            if (status == 401) {
                return "the sidecar at " + address.base() + " refused the token (401); check $BATON_HOME/token or --token";
            }
            if (status == 404) {
                return "the sidecar at " + address.base() + " has no event stream (404); update it";
            }
            return "the sidecar at " + address.base() + " refused the event stream (HTTP " + status + ")";
        }
        if (cause instanceof java.net.ConnectException) {
            return "the sidecar at " + address.base() + " is not answering";
        }
        return "cannot reach the sidecar at " + address.base() + ": " + cause.getMessage();
    }

    @Override
    public void close() {
        closed = true;
        scheduler.shutdownNow();
        WebSocket current = socket;
        if (current != null) {
            current.abort();
        }
    }

    /** Callbacks of one socket; {@code attempt} lets a superseded socket's late callbacks be ignored. */
    private final class Listener implements WebSocket.Listener {

        private final int attempt;
        private final StringBuilder partial = new StringBuilder();

        Listener(int attempt) {
            this.attempt = attempt;
        }

        @Override
        public void onOpen(WebSocket ws) {
            // Marked here, not on the scheduler, so it precedes this socket's first frame.
            if (attempt == generation) {
                cursor.connectionOpened();
            }
            lastFrameNanos = System.nanoTime();
            later(() -> {
                if (attempt != generation || closed) {
                    ws.abort();
                    return;
                }
                socket = ws;
                everConnected = true;
                statuses.accept(new ConnectionStatus(ConnectionState.CONNECTED, "connected to " + locator.describe()));
            });
            ws.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                received(attempt, ws, text);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            later(() -> failed(attempt, "the sidecar closed the event stream (" + statusCode
                    + (reason == null || reason.isEmpty() ? "" : ": " + reason) + ")", false));
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            later(() -> failed(attempt, "the event stream broke: " + error.getMessage(), false));
        }
    }
}
