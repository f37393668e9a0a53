package dev.baton;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A real sidecar on port 0 in a temporary BATON_HOME, with the production adapters, a clock the
 * test moves, and a sweeper that never runs on its own (tests sweep when they mean to).
 */
public final class TestSidecar implements AutoCloseable {

    public record Reply(int status, JsonNode body, HttpHeaders headers) {
        public String errorCode() {
            return body.path("error").path("code").asText(null);
        }
    }

    /** A registered agent session and its key. */
    public record Agent(String id, String key) {
        public Map<String, String> proof() {
            return Map.of(Callers.KEY_HEADER, key);
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final Sidecar sidecar;
    private final MutableClock clock;
    private final String token;
    private final Path repo;

    private TestSidecar(Sidecar sidecar, MutableClock clock, String token, Path repo) {
        this.sidecar = sidecar;
        this.clock = clock;
        this.token = token;
        this.repo = repo;
    }

    /** @param dir a temporary directory; BATON_HOME and a working tree with src/App.java are made inside it */
    public static TestSidecar start(Path dir) throws IOException {
        return start(dir, MutableClock.startingNow());
    }

    public static TestSidecar start(Path dir, MutableClock clock) throws IOException {
        Path repo = Files.createDirectories(dir.resolve("repo")).toRealPath();
        Files.createDirectories(repo.resolve("src"));
        for (String name : new String[] {"App.java", "Util.java", "Other.java"}) {
            Path file = repo.resolve("src").resolve(name);
            if (!Files.exists(file)) {
                Files.writeString(file, "class " + name.replace(".java", "") + " {}\n");
            }
        }
        BatonHome home = new BatonHome(dir.resolve("home"));
        Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0).withClock(clock).withSweepEvery(Duration.ofHours(1)),
                SidecarAdapters::of);
        return new TestSidecar(sidecar, clock, home.readToken().orElseThrow(), repo);
    }

    public Baton baton() {
        return sidecar.baton();
    }

    public MutableClock clock() {
        return clock;
    }

    public Path home() {
        return sidecar.home().dir();
    }

    public Path repo() {
        return repo;
    }

    public String file(String relative) {
        return repo.resolve(relative).toString();
    }

    public String base() {
        return "http://127.0.0.1:" + sidecar.port();
    }

    public String token() {
        return token;
    }

    /** Registers a session whose agent process is {@code pid} (it must be running), working in the test repo. */
    public Agent register(String id, long pid) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", "claude-code");
        body.put("pid", pid);
        body.put("cwd", repo.toString());
        Reply reply = post("/v1/sessions", body, Map.of());
        if (reply.status() != 201) {
            throw new IllegalStateException("registering " + id + " failed: " + reply.body());
        }
        return new Agent(id, reply.body().path("key").asText());
    }

    /** A session whose agent is this test's JVM: always alive. */
    public Agent register(String id) {
        return register(id, ProcessHandle.current().pid());
    }

    public Reply acquire(Agent agent, String file) {
        return post("/v1/locks/acquire", Map.of("session_id", agent.id(), "files", java.util.List.of(file(file))), agent.proof());
    }

    public Reply post(String path, Object body, Map<String, String> headers) {
        try {
            return send(HttpRequest.newBuilder(URI.create(base() + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body))), headers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Reply get(String path, Map<String, String> headers) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).GET(), headers);
    }

    public Reply delete(String path, Map<String, String> headers) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).DELETE(), headers);
    }

    /** A GET with the supervisor's token, as the dashboard makes it. */
    public Reply getAsSupervisor(String path) {
        String supervisor;
        try {
            supervisor = sidecar.home().readSupervisorToken().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return send(HttpRequest.newBuilder(URI.create(base() + path)).GET(), supervisor, Map.of());
    }

    public Reply send(HttpRequest.Builder request, Map<String, String> headers) {
        return send(request, token, headers);
    }

    private Reply send(HttpRequest.Builder request, String bearer, Map<String, String> headers) {
        request.header("Authorization", "Bearer " + bearer).timeout(Duration.ofSeconds(60));
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body = response.body().length == 0 ? Json.mapper().createObjectNode() : Json.mapper().readTree(response.body());
            return new Reply(response.statusCode(), body, response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        sidecar.close();
    }
}
