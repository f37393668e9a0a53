package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Reply;
import dev.baton.http.Json;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** What an MCP client sends over Streamable HTTP, as plain JSON-RPC POSTs: initialize, then requests with the session id. */
final class McpClient {

    private final TestSidecar sidecar;
    private final AtomicLong ids = new AtomicLong();
    private String sessionId;

    McpClient(TestSidecar sidecar) {
        this.sidecar = sidecar;
    }

    static McpClient connected(TestSidecar sidecar) {
        McpClient client = new McpClient(sidecar);
        client.initialize("2025-06-18");
        client.notify("notifications/initialized");
        return client;
    }

    String sessionId() {
        return sessionId;
    }

    Reply initialize(String version) {
        ObjectNode params = Json.mapper().createObjectNode();
        params.put("protocolVersion", version);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "test-client").put("version", "1.0");
        Reply reply = post(message("initialize", params, true), Map.of());
        sessionId = reply.headers().firstValue("Mcp-Session-Id").orElse(null);
        return reply;
    }

    Reply notify(String method) {
        return post(message(method, null, false), sessionHeaders());
    }

    Reply request(String method, JsonNode params) {
        return post(message(method, params, true), sessionHeaders());
    }

    /** The result of tools/call: {content, structuredContent, isError}. */
    JsonNode call(String tool, Map<String, Object> arguments) {
        ObjectNode params = Json.mapper().createObjectNode();
        params.put("name", tool);
        params.set("arguments", Json.mapper().valueToTree(arguments));
        Reply reply = request("tools/call", params);
        if (reply.status() != 200 || reply.body().has("error")) {
            throw new AssertionError("tools/call " + tool + " failed at the protocol level: " + reply.body());
        }
        return reply.body().path("result");
    }

    static String text(JsonNode result) {
        return result.path("content").get(0).path("text").asText();
    }

    ObjectNode message(String method, JsonNode params, boolean request) {
        ObjectNode message = Json.mapper().createObjectNode();
        message.put("jsonrpc", "2.0");
        if (request) {
            message.put("id", ids.incrementAndGet());
        }
        message.put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    Map<String, String> sessionHeaders() {
        Map<String, String> headers = new HashMap<>();
        headers.put("Mcp-Session-Id", sessionId);
        headers.put("MCP-Protocol-Version", "2025-06-18");
        return headers;
    }

    Reply post(Object body, Map<String, String> headers) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(sidecar.base() + "/mcp"))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body instanceof String text ? text.getBytes()
                            : Json.mapper().writeValueAsBytes(body)));
            return sidecar.send(request, headers);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
