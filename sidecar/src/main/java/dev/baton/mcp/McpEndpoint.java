package dev.baton.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.Baton;
import dev.baton.BatonVersion;
import dev.baton.http.Json;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The MCP endpoint {@code /mcp}: Streamable HTTP with JSON responses (initialize, ping,
 * tools/list, tools/call, notifications; {@code Mcp-Session-Id}; protocol version negotiation).
 *
 * <p>Written on Jackson instead of the official MCP Java SDK (io.modelcontextprotocol.sdk 2.1.0,
 * which does run on Java 17 and has a Jackson 2 module) because its transport does not mount
 * cleanly here: it is a servlet that would be mapped on Jetty beside Javalin, outside Javalin's
 * router, so Baton's token/Host/Origin guard and error handling would not apply to it; it answers
 * every request with an SSE stream on an async servlet, never plain JSON; and it brings
 * reactor-core and a JSON Schema validator (with YAML) for the five methods used here. This route
 * sits behind the same guard as the API and answers each POST with one JSON body, which the
 * transport allows.
 */
public final class McpEndpoint {

    /** Newest first; a client asking for another version is offered the newest. */
    static final List<String> PROTOCOL_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    /** Tool calls are small; the API's larger limit exists for hook payloads carrying whole files. */
    static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
    private static final String INSTRUCTIONS = "Baton coordinates the agents editing this repository. Lock files before"
            + " editing (lock_acquire) and release them when done; if a file is held, ask its holder with"
            + " negotiate_release and answer requests for your own files with respond_to_release. The tools act for your"
            + " own session, which Baton knows from the process that runs this server: no tool takes a session id or key.";

    private final Baton baton;
    private final McpSessions sessions;
    private final ToolCatalog tools;

    public McpEndpoint(Baton baton) {
        this.baton = baton;
        this.sessions = new McpSessions(baton.clock());
        this.tools = ToolCatalog.of(baton);
    }

    public void register(RoutesConfig routes) {
        routes.post("/mcp", this::post);
        routes.get("/mcp", ctx -> {
            // No server-initiated stream: Baton never sends requests or notifications to clients.
            ctx.header("Allow", "POST, DELETE");
            reply(ctx, 405, JsonRpc.error(null, JsonRpc.SERVER_ERROR, "this endpoint offers no event stream; POST JSON-RPC messages"));
        });
        routes.delete("/mcp", this::delete);
    }

    private void post(Context ctx) {
        JsonNode message = null;
        try {
            byte[] body = ctx.bodyAsBytes();
            if (body.length > MAX_BODY_BYTES) {
                throw new JsonRpc.Failure(413, JsonRpc.INVALID_REQUEST, "the request is larger than " + (MAX_BODY_BYTES >> 20) + " MiB");
            }
            message = parse(body);
            if (message.isArray()) {
                batch(ctx, (ArrayNode) message);
            } else if (isInitialize(message)) {
                initialize(ctx, message);
            } else {
                McpSessions.McpSession session = requireSession(ctx);
                Optional<ObjectNode> response = handle(session, message, new McpCaller(baton, ctx));
                if (response.isPresent()) {
                    reply(ctx, 200, response.get());
                } else {
                    ctx.status(202);
                }
            }
        } catch (JsonRpc.Failure failure) {
            // The request's id, where it has one, so that a client matching answers to requests (a stdio bridge,
            // which has no HTTP status to go by) can tell which request failed.
            JsonNode id = message != null && message.isObject() ? message.get("id") : null;
            reply(ctx, failure.httpStatus, JsonRpc.error(id, failure.code, failure.getMessage()));
        }
    }

    private static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            throw new JsonRpc.Failure(400, JsonRpc.INVALID_REQUEST, "the body is empty; send a JSON-RPC message");
        }
        try {
            JsonNode message = Json.mapper().readTree(body);
            if (message == null || !(message.isObject() || message.isArray() && !message.isEmpty())) {
                throw new JsonRpc.Failure(400, JsonRpc.INVALID_REQUEST, "send a JSON-RPC message object (or a non-empty batch)");
            }
            return message;
        } catch (IOException e) {
            throw new JsonRpc.Failure(400, JsonRpc.PARSE_ERROR, "the body is not valid JSON: " + e.getMessage());
        }
    }

    private static boolean isInitialize(JsonNode message) {
        return "initialize".equals(message.path("method").asText());
    }

    private void initialize(Context ctx, JsonNode message) {
        JsonNode id = message.get("id");
        if (id == null || id.isNull()) {
            throw new JsonRpc.Failure(400, JsonRpc.INVALID_REQUEST, "initialize is a request: give it an id");
        }
        JsonNode params = message.path("params");
        String requested = params.path("protocolVersion").asText("");
        String agreed = PROTOCOL_VERSIONS.contains(requested) ? requested : PROTOCOL_VERSIONS.get(0);
        JsonNode clientInfo = params.path("clientInfo");
        McpSessions.McpSession session = sessions.open(agreed,
                clientInfo.path("name").asText("unknown") + " " + clientInfo.path("version").asText(""));
        ObjectNode result = Json.mapper().createObjectNode();
        result.put("protocolVersion", agreed);
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        result.putObject("serverInfo").put("name", "baton").put("title", "Baton").put("version", BatonVersion.VERSION);
        result.put("instructions", INSTRUCTIONS);
        ctx.header(SESSION_HEADER, session.id());
        reply(ctx, 200, JsonRpc.result(id, result));
    }

    private McpSessions.McpSession requireSession(Context ctx) {
        String id = ctx.header(SESSION_HEADER);
        if (id == null || id.isBlank()) {
            throw new JsonRpc.Failure(400, JsonRpc.SERVER_ERROR, "the " + SESSION_HEADER
                    + " header is missing; send initialize first and repeat the session id it returns on every request");
        }
        McpSessions.McpSession session = sessions.find(id.trim()).orElseThrow(() -> new JsonRpc.Failure(404,
                JsonRpc.SERVER_ERROR, "unknown or ended MCP session; send initialize again to start a new one"));
        String version = ctx.header(VERSION_HEADER);
        if (version != null && !PROTOCOL_VERSIONS.contains(version.trim())) {
            throw new JsonRpc.Failure(400, JsonRpc.SERVER_ERROR, "unsupported " + VERSION_HEADER + " '" + version
                    + "'; supported: " + PROTOCOL_VERSIONS);
        }
        return session;
    }

    private void batch(Context ctx, ArrayNode messages) {
        McpSessions.McpSession session = requireSession(ctx);
        McpCaller caller = new McpCaller(baton, ctx);
        List<ObjectNode> responses = new ArrayList<>();
        for (JsonNode message : messages) {
            if (isInitialize(message)) {
                responses.add(JsonRpc.error(message.get("id"), JsonRpc.INVALID_REQUEST, "initialize may not be part of a batch"));
            } else {
                handle(session, message, caller).ifPresent(responses::add);
            }
        }
        if (responses.isEmpty()) {
            ctx.status(202);
        } else {
            reply(ctx, 200, Json.mapper().createArrayNode().addAll(responses));
        }
    }

    /** One message of an established session; notifications and client responses get no answer. */
    private Optional<ObjectNode> handle(McpSessions.McpSession session, JsonNode message, McpCaller caller) {
        if (!message.isObject() || !"2.0".equals(message.path("jsonrpc").asText())) {
            return Optional.of(JsonRpc.error(message.get("id"), JsonRpc.INVALID_REQUEST, "not a JSON-RPC 2.0 message"));
        }
        JsonNode id = message.get("id");
        if (!message.has("method")) {
            return Optional.empty(); // a response to a request we never send
        }
        String method = message.path("method").asText();
        if (id == null || id.isNull()) {
            return Optional.empty(); // notifications/initialized, notifications/cancelled, ...
        }
        JsonNode params = message.path("params");
        return Optional.of(switch (method) {
            case "ping" -> JsonRpc.result(id, Json.mapper().createObjectNode());
            case "tools/list" -> JsonRpc.result(id, tools.list());
            case "tools/call" -> call(id, params, caller);
            default -> JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "method '" + method + "' is not offered; this server offers"
                    + " initialize, ping, tools/list and tools/call");
        });
    }

    private ObjectNode call(JsonNode id, JsonNode params, McpCaller caller) {
        String name = params.path("name").asText("");
        Optional<Tool> tool = tools.find(name);
        if (tool.isEmpty()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "unknown tool '" + name + "'; the tools are " + tools.names());
        }
        JsonNode arguments = params.path("arguments");
        return JsonRpc.result(id, tools.call(tool.get(), arguments.isMissingNode() || arguments.isNull()
                ? Json.mapper().createObjectNode() : arguments, caller).toJson());
    }

    private void delete(Context ctx) {
        String id = ctx.header(SESSION_HEADER);
        if (id == null || !sessions.close(id.trim())) {
            reply(ctx, 404, JsonRpc.error(null, JsonRpc.SERVER_ERROR, "unknown or ended MCP session"));
            return;
        }
        ctx.status(204);
    }

    private static void reply(Context ctx, int status, JsonNode body) {
        try {
            ctx.status(status).contentType("application/json").result(Json.mapper().writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON-RPC reply could not be written", e);
        }
    }
}
