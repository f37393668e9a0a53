package dev.baton.dashboard.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** One server-to-client frame of {@code /v1/events}, as the event-stream protocol (v1) defines it. */
public sealed interface Frame permits Frame.Snapshot, Frame.Event, Frame.Resync, Frame.Pong, Frame.Unknown {

    /** The whole state up to and including event {@code seq}. */
    record Snapshot(long seq, StateSnapshot state) implements Frame {
    }

    /** One change; {@code data} is decoded by whoever knows the kind. */
    record Event(long seq, Instant at, String kind, JsonNode data) implements Frame {
    }

    /** The server dropped this client's backlog; reconnect and resume. */
    record Resync(String reason) implements Frame {
    }

    record Pong() implements Frame {
    }

    /** A frame type this dashboard does not know (a newer sidecar); ignored. */
    record Unknown(String type) implements Frame {
    }

    static Frame parse(String text) {
        try {
            JsonNode node = WireJson.mapper().readTree(text);
            if (node == null || !node.isObject()) {
                throw new ProtocolException("a frame must be a JSON object, got: " + abbreviate(text));
            }
            String type = node.path("type").asText("");
            switch (type) {
                case "snapshot":
                    return new Snapshot(requiredSeq(node, text),
                            WireJson.mapper().treeToValue(node.path("snapshot"), StateSnapshot.class));
                case "event":
                    JsonNode at = node.path("at");
                    return new Event(requiredSeq(node, text), at.isTextual() ? Instant.parse(at.asText()) : null,
                            node.path("kind").asText(""), node.path("data"));
                case "resync":
                    return new Resync(node.path("reason").asText(""));
                case "pong":
                    return new Pong();
                default:
                    return new Unknown(type);
            }
        } catch (JsonProcessingException | DateTimeParseException e) {
            throw new ProtocolException("unreadable frame (" + e.getMessage() + "): " + abbreviate(text));
        }
    }

    private static long requiredSeq(JsonNode node, String text) {
        JsonNode seq = node.path("seq");
        if (!seq.canConvertToLong()) {
            throw new ProtocolException("a frame without a numeric seq: " + abbreviate(text));
        }
        return seq.asLong();
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
