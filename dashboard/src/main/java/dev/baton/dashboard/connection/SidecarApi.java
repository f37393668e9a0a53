package dev.baton.dashboard.connection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.dashboard.protocol.MessageInfo;
import dev.baton.dashboard.protocol.TeamReply;
import dev.baton.dashboard.protocol.WireJson;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The REST calls the dashboard makes besides the event stream: the supervisor's actions, the message
 * inbox and the team. Every call is asynchronous and records {@code dashboard} as the actor.
 */
public final class SidecarApi {

    public static final String ACTOR = "dashboard";

    /** How long an action or the inbox may take to answer. */
    private static final Duration ANSWER = Duration.ofSeconds(10);
    /** The team is polled every few seconds; a reply later than this is of no use by the next poll. */
    private static final Duration TEAM_ANSWER = Duration.ofSeconds(4);

    private final SidecarLocator locator;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    public SidecarApi(SidecarLocator locator) {
        this.locator = locator;
    }

    /** What a force-release did: whether a lock was freed and whose it was. */
    public record ForceReleased(String file, boolean released, String previousHolder) {
    }

    /** What ending a session freed. */
    public record SessionEnded(String sessionId, List<String> released) {
    }

    public CompletableFuture<ForceReleased> forceRelease(String file) {
        return send("POST", "/v1/locks/force-release", Map.of("file", file, "actor", ACTOR))
                .thenApply(body -> new ForceReleased(body.path("file").asText(file), body.path("released").asBoolean(),
                        body.path("previous_holder").asText(null)));
    }

    public CompletableFuture<SessionEnded> endSession(String sessionId) {
        return send("DELETE", "/v1/sessions/" + encode(sessionId) + "?actor=" + ACTOR, null)
                .thenApply(body -> {
                    List<String> released = new ArrayList<>();
                    body.path("released").forEach(file -> released.add(file.asText()));
                    return new SessionEnded(sessionId, released);
                });
    }

    /**
     * Which held files carry uncommitted changes, by file: {@code GET /v1/locks?changes=true}. A file git cannot
     * speak for (outside any repository) is absent; so is every file with a sidecar that does not say.
     */
    public CompletableFuture<Map<String, Boolean>> uncommitted() {
        return send("GET", "/v1/locks?changes=true", null, TEAM_ANSWER).thenApply(body -> {
            Map<String, Boolean> uncommitted = new LinkedHashMap<>();
            for (JsonNode lock : body.path("locks")) {
                if (lock.path("uncommitted").isBoolean()) {
                    uncommitted.put(lock.path("file").asText(), lock.path("uncommitted").asBoolean());
                }
            }
            return uncommitted;
        });
    }

    /** A held file's uncommitted changes as git diff shows them: {@code GET /v1/locks/diff}. */
    public CompletableFuture<String> diff(String file) {
        return send("GET", "/v1/locks/diff?file=" + encode(file), null, TEAM_ANSWER).thenApply(body ->
                body.path("diff").asText() + (body.path("truncated").asBoolean() ? "\n… (cut: the diff is longer)" : ""));
    }

    /** A file's audit trail, newest first, a line an entry: {@code GET /v1/history}. */
    public CompletableFuture<String> history(String file) {
        return send("GET", "/v1/history?file=" + encode(file) + "&limit=200", null).thenApply(body -> {
            StringBuilder lines = new StringBuilder();
            for (JsonNode entry : body.path("entries")) {
                lines.append(entry.path("at").asText()).append("  ").append(entry.path("action").asText())
                        .append("  ").append(entry.path("session_id").asText("-"));
                if (entry.hasNonNull("actor")) {
                    lines.append("  by ").append(entry.path("actor").asText());
                }
                if (entry.hasNonNull("reason")) {
                    lines.append("  (").append(entry.path("reason").asText()).append(')');
                }
                lines.append('\n');
            }
            return lines.toString();
        });
    }

    /** Every message, for the supervisor: {@code GET /v1/messages?all=true}. */
    public CompletableFuture<List<MessageInfo>> messages() {
        return send("GET", "/v1/messages?all=true", null).thenApply(body -> {
            JsonNode items = body.isArray() ? body : body.path("messages");
            List<MessageInfo> messages = new ArrayList<>();
            for (JsonNode item : items) {
                messages.add(WireJson.mapper().convertValue(item, MessageInfo.class));
            }
            return messages;
        });
    }

    /**
     * The team this sidecar shares its locks with: {@code GET /v1/team}. A sidecar older than team mode has no such
     * route; its 404 means no team.
     */
    public CompletableFuture<TeamReply> team() {
        return send("GET", "/v1/team", null, TEAM_ANSWER)
                .thenApply(body -> WireJson.mapper().convertValue(body, TeamReply.class))
                .exceptionally(error -> {
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    if (cause instanceof SidecarApiException api && api.notFound()) {
                        return TeamReply.none();
                    }
                    throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
                });
    }

    private CompletableFuture<JsonNode> send(String method, String path, Object body) {
        return send(method, path, body, ANSWER);
    }

    private CompletableFuture<JsonNode> send(String method, String path, Object body, Duration timeout) {
        SidecarAddress address;
        try {
            address = locator.locate();
        } catch (SidecarUnavailableException e) {
            return CompletableFuture.failedFuture(new SidecarApiException("UNAVAILABLE", e.getMessage()));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(address.http(path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + address.token());
        try {
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(WireJson.mapper().writeValueAsBytes(body)));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new SidecarApiException("ENCODING", e.getMessage()));
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, error) -> {
                    if (error != null) {
                        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                        throw new SidecarApiException("UNREACHABLE", "the sidecar at " + address.base()
                                + " did not answer " + method + " " + path + ": " + cause);
                    }
                    return decode(response, method, path);
                });
    }

    private static JsonNode decode(HttpResponse<byte[]> response, String method, String path) {
        JsonNode json;
        try {
            json = response.body().length == 0 ? WireJson.mapper().createObjectNode() : WireJson.mapper().readTree(response.body());
        } catch (IOException e) {
            throw new SidecarApiException("HTTP_" + response.statusCode(), "the sidecar answered " + method + " " + path
                    + " with " + response.statusCode() + " and a body that is not JSON");
        }
        if (response.statusCode() >= 400) {
            JsonNode error = json.path("error");
            throw new SidecarApiException(error.path("code").asText("HTTP_" + response.statusCode()),
                    error.path("message").asText("the sidecar answered " + response.statusCode() + " to " + method + " " + path));
        }
        return json;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
