package dev.baton.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

/** A real sidecar on an ephemeral port in a temp BATON_HOME, with an HTTP client that knows its token. */
public final class TempSidecar implements AutoCloseable {

    private final Path home;
    private final UnaryOperator<SidecarOptions> tuning;
    private final HttpClient http = HttpClient.newHttpClient();
    private Sidecar sidecar;
    private String token;
    /** The keys of the sessions registered through this helper; they survive a restart, as the sidecar's do. */
    private final Map<String, String> keys = new java.util.concurrent.ConcurrentHashMap<>();

    private TempSidecar(Path home, UnaryOperator<SidecarOptions> tuning) {
        this.home = home;
        this.tuning = tuning;
    }

    public static TempSidecar start(Path home) {
        return start(home, UnaryOperator.identity());
    }

    public static TempSidecar start(Path home, UnaryOperator<SidecarOptions> tuning) {
        TempSidecar temp = new TempSidecar(home, tuning);
        temp.boot();
        return temp;
    }

    private void boot() {
        try {
            BatonHome batonHome = new BatonHome(home);
            sidecar = Sidecar.start(tuning.apply(SidecarOptions.defaults(batonHome, 0)), SidecarAdapters::of);
            token = batonHome.readToken().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops and starts again on the same BATON_HOME (a new port), as after a crash and restart. */
    public void restart() {
        sidecar.close();
        boot();
    }

    public Sidecar sidecar() {
        return sidecar;
    }

    public Path home() {
        return home;
    }

    public String token() {
        return token;
    }

    public int port() {
        return sidecar.port();
    }

    public String base() {
        return "http://127.0.0.1:" + port();
    }

    public Reply get(String path) {
        return send(request(path).GET().build());
    }

    public Reply post(String path, Object body) {
        return postRaw(path, json(body));
    }

    public Reply delete(String path) {
        return send(request(path).DELETE().build());
    }

    public Reply postRaw(String path, byte[] body) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** A call a registered session makes for itself: it carries the key the session was issued. */
    public Reply postAs(String session, String path, Object body) {
        return postRawAs(session, path, json(body));
    }

    public Reply postRawAs(String session, String path, byte[] body) {
        return send(request(path).header("Content-Type", "application/json").header(Callers.KEY_HEADER, keyOf(session))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    public String keyOf(String session) {
        String key = keys.get(session);
        if (key == null) {
            throw new IllegalStateException("session " + session + " was not registered through this helper");
        }
        return key;
    }

    /** A request made with the supervisor's token, as the dashboard and {@code baton … --supervisor} make them. */
    public Reply sendAsSupervisor(String method, String path, Object body) {
        try {
            String supervisor = new BatonHome(home).readSupervisorToken().orElseThrow();
            HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(json(body));
            return send(HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + supervisor).header("Content-Type", "application/json")
                    .method(method, publisher).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token);
    }

    public Reply send(HttpRequest request) {
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Registers a session for a process (null pid = no process) and returns its id. */
    public String register(String id, String agent, Long pid) {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", agent);
        if (pid != null) {
            body.put("pid", pid);
        }
        return register(body);
    }

    /** Registers a session with any registration fields, keeping the key it is issued; returns its id. */
    public String register(Map<String, Object> body) {
        Reply reply = post("/v1/sessions", body);
        if (reply.status() >= 300) {
            throw new IllegalStateException("register failed: " + reply);
        }
        String id = reply.body().path("session").path("id").asText();
        if (reply.body().hasNonNull("key")) {
            keys.put(id, reply.body().path("key").asText());
        }
        return id;
    }

    public static byte[] json(Object body) {
        try {
            return Json.mapper().writeValueAsBytes(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        sidecar.close();
    }

    /** A reply's status and parsed body. */
    public record Reply(int status, byte[] bytes) {

        public JsonNode body() {
            try {
                return Json.mapper().readTree(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + new String(bytes), e);
            }
        }

        public String errorCode() {
            return body().path("error").path("code").asText();
        }

        @Override
        public String toString() {
            return status + " " + new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
