package dev.baton.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds the JSON Schemas of tool inputs. Alternatives are expressed with {@code oneOf} inside a
 * property, never at the top level: Anthropic's API refuses a tool whose input schema has
 * oneOf/anyOf/allOf at its root, and Claude Code then drops the tool.
 */
final class Schema {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectNode node = NODES.objectNode();

    private Schema() {
    }

    static Schema object() {
        Schema schema = new Schema();
        schema.node.put("type", "object");
        schema.node.putObject("properties");
        schema.node.put("additionalProperties", false);
        return schema;
    }

    /**
     * An object schema for a call that acts for the caller's session. It names no session and takes no key: the
     * session is the one of the agent that runs the MCP server, found from its process ({@link McpCaller}).
     */
    static Schema agentCall() {
        return object();
    }

    Schema property(String name, ObjectNode schema) {
        ((ObjectNode) node.get("properties")).set(name, schema);
        return this;
    }

    Schema required(String... names) {
        ArrayNode required = node.has("required") ? (ArrayNode) node.get("required") : node.putArray("required");
        for (String name : names) {
            required.add(name);
        }
        return this;
    }

    Schema description(String text) {
        node.put("description", text);
        return this;
    }

    ObjectNode build() {
        return node;
    }

    static ObjectNode string(String description, int minLength, int maxLength) {
        ObjectNode schema = typed("string", description);
        schema.put("minLength", minLength);
        schema.put("maxLength", maxLength);
        return schema;
    }

    static ObjectNode dateTime(String description) {
        ObjectNode schema = typed("string", description);
        schema.put("format", "date-time");
        return schema;
    }

    static ObjectNode integer(String description, int minimum, int maximum, Integer defaultValue) {
        ObjectNode schema = typed("integer", description);
        schema.put("minimum", minimum);
        schema.put("maximum", maximum);
        if (defaultValue != null) {
            schema.put("default", defaultValue);
        }
        return schema;
    }

    static ObjectNode bool(String description, boolean defaultValue) {
        ObjectNode schema = typed("boolean", description);
        schema.put("default", defaultValue);
        return schema;
    }

    static ObjectNode choice(String description, String defaultValue, String... values) {
        ObjectNode schema = typed("string", description);
        ArrayNode allowed = schema.putArray("enum");
        for (String value : values) {
            allowed.add(value);
        }
        if (defaultValue != null) {
            schema.put("default", defaultValue);
        }
        return schema;
    }

    static ObjectNode constant(String description, String value) {
        ObjectNode schema = typed("string", description);
        schema.put("const", value);
        return schema;
    }

    static ObjectNode strings(String description, int minItems, int maxItems) {
        ObjectNode schema = typed("array", description);
        schema.set("items", string("A path.", 1, 4096));
        schema.put("minItems", minItems);
        schema.put("maxItems", maxItems);
        return schema;
    }

    /** Exactly one of the alternatives, each with its own description. */
    static ObjectNode oneOf(String description, ObjectNode... alternatives) {
        ObjectNode schema = NODES.objectNode();
        schema.put("description", description);
        ArrayNode options = schema.putArray("oneOf");
        for (ObjectNode alternative : alternatives) {
            options.add(alternative);
        }
        return schema;
    }

    private static ObjectNode typed(String type, String description) {
        ObjectNode schema = NODES.objectNode();
        schema.put("type", type);
        schema.put("description", description);
        return schema;
    }
}
