package dev.baton.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;

/**
 * What a tool call answers: sentences for the model and the same facts as structured content.
 * A refusal is a result with {@code isError}, so the model reads why and can correct itself.
 */
record ToolResult(String text, Object structured, boolean isError) {

    static ToolResult ok(String text, Object structured) {
        return new ToolResult(text, structured, false);
    }

    static ToolResult error(String text) {
        return new ToolResult(text, null, true);
    }

    ObjectNode toJson() {
        ObjectNode result = Json.mapper().createObjectNode();
        StringBuilder shown = new StringBuilder(text);
        if (structured != null) {
            JsonNode tree = Json.mapper().valueToTree(structured);
            result.set("structuredContent", tree);
            try {
                // Clients that predate structured content read only the text; give them the facts too.
                shown.append("\n\n").append(Json.mapper().writeValueAsString(tree));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a tool result could not be written as JSON", e);
            }
        }
        result.putArray("content").addObject().put("type", "text").put("text", shown.toString());
        result.put("isError", isError);
        return result;
    }
}
