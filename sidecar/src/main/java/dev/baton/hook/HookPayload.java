package dev.baton.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import dev.baton.state.BatonException;
import java.io.IOException;
import java.util.Optional;

/** An agent's hook payload, parsed once: a JSON object read leniently, since every agent adds fields of its own. */
public final class HookPayload {

    private final ObjectNode root;

    private HookPayload(ObjectNode root) {
        this.root = root;
    }

    static HookPayload parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw BatonException.invalid("the hook payload is empty; pipe the agent's hook JSON to baton-hook");
        }
        JsonNode tree;
        try {
            tree = Json.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw BatonException.invalid("the hook payload is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw BatonException.invalid("the hook payload cannot be read: " + e.getMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw BatonException.invalid("the hook payload must be a JSON object, was "
                    + (tree == null ? "nothing" : tree.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        return new HookPayload((ObjectNode) tree);
    }

    static HookPayload of(ObjectNode root) {
        return new HookPayload(root);
    }

    public boolean has(String field) {
        JsonNode value = root.get(field);
        return value != null && !value.isNull();
    }

    /** A string field, or null when absent; any other type is a malformed payload. */
    public String text(String field) {
        return textOf(root, field);
    }

    public JsonNode node(String field) {
        JsonNode value = root.get(field);
        return value == null || value.isNull() ? null : value;
    }

    /** The object in {@code field}, or empty when it is absent or not an object. */
    public Optional<ObjectNode> object(String field) {
        JsonNode value = root.get(field);
        return value instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
    }

    public static String textOf(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw BatonException.invalid("field '" + field + "' of the hook payload must be a string, was "
                    + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        return value.textValue();
    }

    /** Parses JSON embedded in a string (Copilot's double-encoded toolArgs); empty when the text is not JSON. */
    public static Optional<JsonNode> embedded(String text) {
        String trimmed = text.strip();
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(Json.mapper().readTree(trimmed));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }
}
