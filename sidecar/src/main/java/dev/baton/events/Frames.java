package dev.baton.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.baton.http.Json;
import dev.baton.state.EventRecord;
import java.util.LinkedHashMap;
import java.util.Map;

/** The text of the frames a client receives; an event's frame is built once and shared by all clients. */
final class Frames {

    static final String PONG = "{\"type\":\"pong\"}";

    private Frames() {
    }

    static String event(EventRecord event) {
        // kind is one of our fixed dotted names and data is JSON already: no escaping needed.
        return "{\"type\":\"event\",\"seq\":" + event.seq() + ",\"at\":\"" + event.at() + "\",\"kind\":\"" + event.kind()
                + "\",\"data\":" + event.data() + "}";
    }

    static String snapshot(long seq, Map<String, Object> snapshot) {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", "snapshot");
        frame.put("seq", seq);
        frame.put("snapshot", snapshot);
        return json(frame);
    }

    static String resync(String reason) {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", "resync");
        frame.put("reason", reason);
        return json(frame);
    }

    static String json(Object value) {
        try {
            return Json.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event could not be written as JSON", e);
        }
    }
}
