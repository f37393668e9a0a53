package dev.baton.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicLong;

/** One model wire protocol: which requests are turns, and how a step is written on the wire. */
public interface Wire {

    AtomicLong IDS = new AtomicLong();

    static String id(String prefix) {
        return prefix + IDS.incrementAndGet();
    }

    /** What the server sends back. {@code streamed}: chunked body (server-sent events). */
    record Reply(int status, String contentType, String body, boolean streamed) {
        public static Reply json(int status, String body) {
            return new Reply(status, "application/json", body, false);
        }

        public static Reply events(String body) {
            return new Reply(200, "text/event-stream", body, true);
        }
    }

    /** Whether a request to this path speaks this protocol. */
    boolean serves(String path);

    /** A turn of the agent's loop: the request offers tools. Titles, summaries and checks offer none. */
    default boolean isTurn(FakeModel.Request request, JsonNode json) {
        return hasTools(json);
    }

    /** The answer to a side request (a title, a summary, a check): plain text that leaves the script alone. */
    default Reply side(FakeModel.Request request, JsonNode json) {
        return reply(Step.say("ok"), json);
    }

    Reply reply(Step step, JsonNode json);

    static ObjectNode object() {
        return FakeModel.JSON.createObjectNode();
    }

    static String sse(String event, JsonNode data) {
        return (event == null ? "" : "event: " + event + "\n") + "data: " + data + "\n\n";
    }

    static boolean hasTools(JsonNode json) {
        return json.path("tools").isArray() && json.path("tools").size() > 0;
    }
}
