package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.session.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A tool's arguments after they passed its schema: typed reads, with the schema's defaults. */
final class ToolArgs {

    private final ObjectNode arguments;
    private final McpCaller caller;

    ToolArgs(ObjectNode arguments, McpCaller caller) {
        this.arguments = arguments;
        this.caller = caller;
    }

    boolean has(String name) {
        JsonNode value = arguments.get(name);
        return value != null && !value.isNull();
    }

    JsonNode node(String name) {
        return arguments.get(name);
    }

    String string(String name) {
        return has(name) ? arguments.get(name).asText() : null;
    }

    int integer(String name, int fallback) {
        return has(name) ? arguments.get(name).asInt() : fallback;
    }

    boolean bool(String name, boolean fallback) {
        return has(name) ? arguments.get(name).asBoolean() : fallback;
    }

    Instant instant(String name) {
        return has(name) ? Instant.parse(arguments.get(name).asText()) : null;
    }

    List<String> strings(String name) {
        List<String> values = new ArrayList<>();
        if (has(name)) {
            arguments.get(name).forEach(value -> values.add(value.asText()));
        }
        return values;
    }

    /** The calling agent's session, found from its process; a call no session runs above fails before anything changes. */
    Session session() {
        return caller.session();
    }

    McpCaller caller() {
        return caller;
    }
}
