package dev.baton.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.lock.CanonicalPath;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real sidecar on port 0 in a temporary BATON_HOME, mounted with the production adapters, and a
 * plain HTTP client that talks to it with the token as any client would.
 */
public final class RunningSidecar implements AutoCloseable {

    public final Sidecar sidecar;
    public final MutableClock clock;
    public final SidecarAdapters.Modules modules;
    public final Path files;
    public final String token;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private final Map<String, String> keys = new java.util.concurrent.ConcurrentHashMap<>();

    private RunningSidecar(Sidecar sidecar, MutableClock clock, SidecarAdapters.Modules modules, Path files)
            throws IOException {
        this.sidecar = sidecar;
        this.clock = clock;
        this.modules = modules;
        this.files = files;
        this.token = sidecar.home().readToken().orElseThrow();
    }

    public static RunningSidecar start(Path dir, Map<String, String> env) {
        return start(dir, env, Duration.ZERO);
    }

    /** A sidecar whose clock starts {@code later} than a fresh one's: a restart after that much time. */
    public static RunningSidecar start(Path dir, Map<String, String> env, Duration later) {
        try {
            MutableClock clock = new MutableClock(Instant.parse("2026-03-02T09:00:00Z").plus(later));
            AtomicReference<SidecarAdapters.Modules> modules = new AtomicReference<>();
            SidecarOptions options = SidecarOptions.defaults(new BatonHome(dir.resolve("home")), 0).withClock(clock)
                    .withSweepEvery(Duration.ofMillis(200));
            Sidecar sidecar = Sidecar.start(options, baton -> {
                modules.set(SidecarAdapters.Modules.install(baton, env));
                return SidecarAdapters.routes(baton, modules.get());
            });
            return new RunningSidecar(sidecar, clock, modules.get(), Files.createDirectories(dir.resolve("repo")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return sidecar.port();
    }

    /** The lock key of a file in the test repository. */
    public String file(String name) {
        return CanonicalPath.of(files.resolve(name).toString(), null);
    }

    /** Registers a session; the clock moves on a second first, so sessions registered later are younger. */
    public String register(String id) {
        return register(id, null);
    }

    public String register(String id, Long pid) {
        clock.advance(Duration.ofSeconds(1));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", "claude-code");
        body.put("cwd", files.toString());
        if (pid != null) {
            body.put("pid", pid);
        }
        JsonNode registered = post("/v1/sessions", body);
        if (registered.hasNonNull("key")) {
            keys.put(id, registered.path("key").asText());
        }
        return id;
    }

    /** The proof a session's own calls carry: the key it was issued when it registered. */
    public Map<String, String> proof(String session) {
        return Map.of(Callers.KEY_HEADER, keys.getOrDefault(session, ""));
    }

    public JsonNode acquire(String session, String file, int waitSeconds) {
        return post("/v1/locks/acquire", Map.of("session_id", session, "files", List.of(file), "wait_seconds", waitSeconds),
                proof(session));
    }

    /** A waiting acquire in its own thread, as a blocked agent would make it. */
    public CompletableFuture<JsonNode> acquireInBackground(String session, String file, int waitSeconds) {
        return CompletableFuture.supplyAsync(() -> acquire(session, file, waitSeconds), waiters);
    }

    public JsonNode release(String session, String file) {
        return post("/v1/locks/release", Map.of("session_id", session, "files", List.of(file)), proof(session));
    }

    /** The session ends itself: the call carries its key. */
    public JsonNode endSession(String session) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/v1/sessions/" + session)).DELETE();
        proof(session).forEach(request::header);
        return send(request);
    }

    public JsonNode get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    public JsonNode post(String path, Object body) {
        return post(path, body, Map.of());
    }

    public JsonNode post(String path, Object body, Map<String, String> headers) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body)));
            headers.forEach(request::header);
            return send(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public EventClient events(Long since) {
        return EventClient.connect(port(), token, since, true);
    }

    public EventClient stalledEvents() {
        return EventClient.connect(port(), token, null, false);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    private JsonNode send(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> response = http.send(request.header("Authorization", "Bearer " + token)
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body = Json.mapper().readTree(response.body());
            if (response.statusCode() >= 400) {
                throw new ApiFailure(response.statusCode(), body);
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A 4xx or 5xx answer. */
    public static final class ApiFailure extends RuntimeException {
        public final int status;
        public final JsonNode body;

        ApiFailure(int status, JsonNode body) {
            super(status + " " + body);
            this.status = status;
            this.body = body;
        }
    }

    @Override
    public void close() {
        sidecar.close();
        waiters.shutdownNow();
    }
}
