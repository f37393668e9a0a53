package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** One line of {@code baton watch}: an event's number, time, kind and what happened, in words. */
final class EventLine {

    private EventLine() {
    }

    static String of(JsonNode frame) {
        String type = frame.path("type").asText();
        if ("snapshot".equals(type)) {
            JsonNode state = frame.path("snapshot");
            return String.format("snapshot at #%d: %d session(s), %d lock(s), %d wait(s), %d deadlock(s)",
                    frame.path("seq").asLong(), state.path("sessions").size(), state.path("locks").size(),
                    state.path("waits").size(), state.path("deadlocks").size());
        }
        if (!"event".equals(type)) {
            return type + (frame.has("reason") ? ": " + frame.path("reason").asText() : "");
        }
        String kind = frame.path("kind").asText();
        return "#" + frame.path("seq").asLong() + " " + frame.path("at").asText() + " " + kind + " "
                + describe(kind, frame.path("data"));
    }

    private static String describe(String kind, JsonNode data) {
        switch (kind) {
            case "session.started", "session.updated" -> {
                JsonNode s = data.path("session");
                return s.path("id").asText() + " (" + s.path("agent").asText() + optional(", pid ", s.path("pid"))
                        + optional(", ", s.path("name")) + ")";
            }
            case "session.ended" -> {
                return data.path("session_id").asText() + " (" + data.path("reason").asText()
                        + optional(", by ", data.path("actor")) + ")";
            }
            case "security.impersonation_refused" -> {
                return data.path("by").asText("an unknown process") + " tried to act as "
                        + data.path("session_id").asText("a session") + ": " + data.path("attempt").asText();
            }
            case "lock.acquired", "lock.updated" -> {
                JsonNode lock = data.path("lock");
                return file(lock.path("file")) + " by " + lock.path("holder").path("session").asText()
                        + (lock.path("edit_in_flight").asBoolean() ? " [editing]" : "");
            }
            case "lock.released" -> {
                return file(data.path("file")) + " by " + data.path("session_id").asText() + " ("
                        + data.path("reason").asText() + optional(", by ", data.path("actor")) + ")";
            }
            case "lock.denied" -> {
                return file(data.path("file")) + " to " + data.path("session_id").asText() + ", held by "
                        + data.path("holder").asText("?");
            }
            case "shell.write_conflict" -> {
                return file(data.path("file")) + " changed by " + data.path("session_id").asText() + "'s command `"
                        + data.path("command").asText() + "`, held by " + data.path("holder").asText("?")
                        + (data.hasNonNull("restore") ? "; restore with `" + data.path("restore").asText() + "`" : "");
            }
            case "version.restored" -> {
                return file(data.path("file")) + " put back to " + data.path("holder").asText() + "'s last version by "
                        + data.path("by").asText("?");
            }
            case "named_lock.acquired" -> {
                JsonNode lock = data.path("named_lock");
                return lock.path("name").asText() + " by pid " + lock.path("pid").asText();
            }
            case "named_lock.released" -> {
                return data.path("name").asText() + " (" + data.path("reason").asText() + ")";
            }
            case "wait.started" -> {
                JsonNode wait = data.path("wait");
                return wait.path("waiter").asText() + " waits for " + file(wait.path("file"))
                        + optional(", held by ", wait.path("holder")) + " (" + wait.path("kind").asText() + ")";
            }
            case "wait.ended" -> {
                return data.path("waiter").asText() + " no longer waits for " + file(data.path("file")) + " ("
                        + data.path("kind").asText() + ")";
            }
            case "deadlock.detected" -> {
                JsonNode deadlock = data.path("deadlock");
                return deadlock.path("id").asText() + ": " + cycle(deadlock.path("sessions")) + " over "
                        + files(deadlock.path("files")) + "; victim " + deadlock.path("victim").asText();
            }
            case "deadlock.resolved" -> {
                return data.path("id").asText() + " (" + data.path("how").asText() + ")";
            }
            case "stale.cleaned" -> {
                return data.path("session_id").asText() + " (" + data.path("reason").asText() + "): "
                        + data.path("files").size() + " file(s) freed";
            }
            case "plan.updated" -> {
                return data.path("session_id").asText() + ": " + data.path("goal").asText("-")
                        + optional(" — now: ", data.path("current_task"));
            }
            default -> {
                return data.toString();
            }
        }
    }

    static String cycle(JsonNode sessions) {
        List<String> ids = new ArrayList<>();
        sessions.forEach(id -> ids.add(id.asText()));
        if (!ids.isEmpty()) {
            ids.add(ids.get(0));
        }
        return String.join(" → ", ids);
    }

    static String files(JsonNode files) {
        List<String> shown = new ArrayList<>();
        files.forEach(f -> shown.add(Output.relative(f.asText())));
        return String.join(", ", shown);
    }

    private static String file(JsonNode file) {
        return Output.relative(file.asText());
    }

    private static String optional(String prefix, JsonNode value) {
        return value.isMissingNode() || value.isNull() || value.asText().isEmpty() ? "" : prefix + value.asText();
    }
}
