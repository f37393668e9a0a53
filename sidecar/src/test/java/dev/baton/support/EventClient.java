package dev.baton.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real WebSocket client of {@code /v1/events} (java.net.http) that keeps every frame it receives.
 * A stalled client requests nothing, so it reads nothing and its socket fills up.
 */
public final class EventClient implements WebSocket.Listener, AutoCloseable {

    private final List<JsonNode> frames = new ArrayList<>();
    private final StringBuilder partial = new StringBuilder();
    private final boolean reading;
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private WebSocket socket;

    private EventClient(boolean reading) {
        this.reading = reading;
    }

    /**
     * Connects to the event stream. A reading client without {@code since} returns once its snapshot has arrived:
     * the sidecar subscribes a client after the upgrade the client already saw completed, and what happens before
     * that is in the snapshot, never an event of its own, so a caller that acts before then could wait for an event
     * that never comes.
     */
    public static EventClient connect(int port, String token, Long since, boolean reading) {
        EventClient client = new EventClient(reading);
        String query = since == null ? "" : "?since=" + since;
        client.socket = builder(token, null)
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/events" + query), client)
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
        if (reading && since == null) {
            client.firstFrame();
        }
        return client;
    }

    public static WebSocket.Builder builder(String token, String origin) {
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        if (origin != null) {
            builder.header("Origin", origin);
        }
        return builder;
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        if (reading) {
            webSocket.request(1);
        }
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            try {
                JsonNode frame = Json.mapper().readTree(partial.toString().getBytes(StandardCharsets.UTF_8));
                synchronized (frames) {
                    frames.add(frame);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            partial.setLength(0);
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.complete(-1);
    }

    /** Starts reading (a stalled client catches up). */
    public void resume() {
        socket.request(1);
    }

    public void send(String text) {
        socket.sendText(text, true).join();
    }

    public boolean isClosed() {
        return closed.isDone();
    }

    public List<JsonNode> frames() {
        synchronized (frames) {
            return List.copyOf(frames);
        }
    }

    public List<JsonNode> events() {
        return frames().stream().filter(f -> "event".equals(f.path("type").asText())).toList();
    }

    public List<JsonNode> events(String kind) {
        return events().stream().filter(f -> kind.equals(f.path("kind").asText())).toList();
    }

    public JsonNode firstFrame() {
        await().until(() -> !frames().isEmpty());
        return frames().get(0);
    }

    /** Waits for the first event of this kind matching {@code test}. */
    public JsonNode awaitEvent(String kind, Predicate<JsonNode> test) {
        await().until(() -> events(kind).stream().anyMatch(e -> test.test(e.path("data"))));
        return events(kind).stream().filter(e -> test.test(e.path("data"))).findFirst().orElseThrow();
    }

    public JsonNode awaitEvent(String kind) {
        return awaitEvent(kind, data -> true);
    }

    /** The last sequence number seen (snapshot or event). */
    public long lastSeq() {
        List<JsonNode> all = frames();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).has("seq")) {
                return all.get(i).path("seq").asLong();
            }
        }
        return -1;
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
        socket.abort();
    }
}
