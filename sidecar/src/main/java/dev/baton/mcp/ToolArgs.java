package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.Baton;
import dev.baton.session.Session;
import dev.baton.session.SessionProof;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A tool's arguments after they passed its schema: typed reads, with the schema's defaults. */
final class ToolArgs {

    private final ObjectNode arguments;

    ToolArgs(ObjectNode arguments) {
        this.arguments = arguments;
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

    /** The calling session, proved by its key; a wrong key fails the call before anything changes. */
    Session session(Baton baton) {
        return baton.identity().verify(string("session_id"), new SessionProof.Key(string("key")));
    }
}
