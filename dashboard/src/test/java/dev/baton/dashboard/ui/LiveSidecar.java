package dev.baton.dashboard.ui;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.dashboard.protocol.WireJson;
import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.team.TeamSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real sidecar on port 0 in a temporary BATON_HOME, with production adapters, driven through its
 * real HTTP API as agents would drive it. The dashboard under test only sees it over the network.
 */
final class LiveSidecar implements AutoCloseable {

    private final Path homeDir;
    private final TeamSettings team;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    /**
     * Each session's agent is a sleeping child of this JVM, never the JVM itself: the JVM is the dashboard, the
     * supervisor, whose actions the sidecar refuses to an agent's process. The sessions' own calls carry their keys.
     */
    private final Map<String, Process> agents = new java.util.HashMap<>();
    private final Map<String, String> keys = new java.util.HashMap<>();
    private Sidecar sidecar;
    private String token;

    LiveSidecar(Path homeDir) {
        this(homeDir, null);
    }

    /** A sidecar that shares its locks with the team whose database {@code teamUrl} names, as machine {@code machine}. */
    static LiveSidecar inTeam(Path homeDir, String teamUrl, String machine) {
        return new LiveSidecar(homeDir, TeamSettings.fromEnvironment(Map.of("BATON_TEAM_URL", teamUrl,
                "BATON_TEAM_MACHINE", machine)).orElseThrow());
    }

    private LiveSidecar(Path homeDir, TeamSettings team) {
        this.homeDir = homeDir;
        this.team = team;
    }

    LiveSidecar start() throws IOException {
        SidecarOptions options = SidecarOptions.defaults(new BatonHome(homeDir), 0);
        sidecar = Sidecar.start(team == null ? options : options.inTeam(team), SidecarAdapters::of);
        token = new BatonHome(homeDir).readToken().orElseThrow();
        return this;
    }

    /** Stops the sidecar (its endpoint file goes with it); {@link #start()} brings it back on a new port. */
    void stop() {
        if (sidecar != null) {
            sidecar.close();
            sidecar = null;
        }
    }

    Path home() {
        return homeDir;
    }

    String base() {
        return "http://127.0.0.1:" + sidecar.port();
    }

    String token() {
        return token;
    }

    String register(String sessionId, String name, Path cwd) {
        return register(sessionId, "claude-code", name, cwd);
    }

    String register(String sessionId, String agent, String name, Path cwd) {
        Process process;
        try {
            process = new ProcessBuilder("sleep", "3600").start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        agents.put(sessionId, process);
        Map<String, Object> body = new java.util.HashMap<>(Map.of("session_id", sessionId, "agent", agent,
                "pid", process.pid(), "cwd", cwd.toString()));
        if (name != null) {
            body.put("name", name);
        }
        keys.put(sessionId, post("/v1/sessions", body).path("key").asText());
        return sessionId;
    }

    /** The agent process a registered session runs in. */
    long pidOf(String sessionId) {
        return agents.get(sessionId).pid();
    }

    private Map<String, String> as(String sessionId) {
        String key = keys.get(sessionId);
        return key == null ? Map.of() : Map.of("X-Baton-Key", key);
    }

    JsonNode acquire(String sessionId, Path file, int waitSeconds) {
        return post("/v1/locks/acquire", Map.of("session_id", sessionId, "files", List.of(file.toString()),
                "wait_seconds", waitSeconds), as(sessionId));
    }

    JsonNode sendMessage(String fromSession, String to, String text) {
        return post("/v1/messages", Map.of("session_id", fromSession, "to", to, "text", text), as(fromSession));
    }

    JsonNode negotiate(String requester, Path file, String reason, String urgency) {
        return post("/v1/negotiations", Map.of("session_id", requester, "file", file.toString(), "reason", reason,
                "urgency", urgency), as(requester));
    }

    JsonNode plan(String sessionId, String goal, String currentTask) {
        return post("/v1/plans", Map.of("session_id", sessionId, "goal", goal, "current_task", currentTask), as(sessionId));
    }

    JsonNode release(String sessionId, Path file) {
        return post("/v1/locks/release", Map.of("session_id", sessionId, "files", List.of(file.toString())), as(sessionId));
    }

    JsonNode locks() {
        return get("/v1/locks");
    }

    JsonNode history(Path file) {
        return get("/v1/history?file=" + java.net.URLEncoder.encode(file.toString(), java.nio.charset.StandardCharsets.UTF_8));
    }

    void endSession(String sessionId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + "/v1/sessions/" + sessionId)).DELETE();
        as(sessionId).forEach(request::header);
        send(request);
    }

    private JsonNode get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).GET());
    }

    private JsonNode post(String path, Object body) {
        return post(path, body, Map.of());
    }

    private JsonNode post(String path, Object body, Map<String, String> headers) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(WireJson.mapper().writeValueAsBytes(body)));
            headers.forEach(request::header);
            return send(request);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.header("Authorization", "Bearer " + token)
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = WireJson.mapper().readTree(response.body().isEmpty() ? "{}" : response.body());
            if (response.statusCode() >= 400) {
                throw new IllegalStateException("the sidecar answered " + response.statusCode() + ": " + response.body());
            }
            return body;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        stop();
        agents.values().forEach(Process::destroyForcibly);
    }
}
