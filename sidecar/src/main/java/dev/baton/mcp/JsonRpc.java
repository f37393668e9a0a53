package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;

/** JSON-RPC 2.0 messages as MCP uses them: responses echo the request id, errors carry a code and a sentence. */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** Implementation-defined (-32000 to -32099): the transport refused the request (missing or unknown session). */
    static final int SERVER_ERROR = -32000;

    private JsonRpc() {
    }

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode response = envelope(id);
        response.set("result", result);
        return response;
    }

    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = envelope(id);
        response.putObject("error").put("code", code).put("message", message);
        return response;
    }

    private static ObjectNode envelope(JsonNode id) {
        ObjectNode response = Json.mapper().createObjectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id == null ? NullNode.getInstance() : id);
        return response;
    }

    /** A JSON-RPC failure with the HTTP status the transport answers it with. */
    static final class Failure extends RuntimeException {
        final int httpStatus;
        final int code;

        Failure(int httpStatus, int code, String message) {
            super(message);
            this.httpStatus = httpStatus;
            this.code = code;
        }
    }
}
