package dev.baton.dashboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Turns an event into the sentence the activity log shows, naming sessions and files as people know them. */
final class EventSummary {

    private final Board board;

    EventSummary(Board board) {
        this.board = board;
    }

    String of(String kind, JsonNode data) {
        switch (kind) {
            case "session.started":
                return who(data.path("session").path("id").asText()) + " started"
                        + in(data.path("session").path("cwd").asText(null));
            case "session.updated":
                return who(data.path("session").path("id").asText()) + " updated";
            case "session.ended":
                String endedBy = data.path("actor").asText(null);
                return who(data.path("session_id").asText()) + " ended" + because(data.path("reason"))
                        + (endedBy == null ? "" : ", by " + handedOverBy(endedBy));
            case "security.impersonation_refused":
                String session = data.path("session_id").asText(null);
                return "refused: " + data.path("by").asText("an unknown process") + " tried to act as "
                        + (session == null ? "another session" : who(session)) + " ("
                        + data.path("attempt").asText("?") + ")";
            case "lock.acquired":
                return who(data.path("lock").path("holder").path("session").asText()) + " locked "
                        + file(data.path("lock").path("file").asText(), data.path("lock").path("holder").path("session").asText());
            case "lock.updated":
                boolean editing = data.path("lock").path("edit_in_flight").asBoolean();
                return who(data.path("lock").path("holder").path("session").asText())
                        + (editing ? " is editing " : " finished editing ")
                        + file(data.path("lock").path("file").asText(), data.path("lock").path("holder").path("session").asText());
            case "lock.released":
                String actor = data.path("actor").asText(null);
                String former = data.path("session_id").asText();
                String released = file(data.path("file").asText(), former);
                if (actor != null && !actor.equals(former)) {
                    // A hand-over: someone else took the file; the sidecar tells its former holder on its next call.
                    return handedOverBy(actor) + " took " + released + " from " + who(former) + because(data.path("reason"))
                            + "; " + who(former) + " is told on its next call to re-read it";
                }
                return who(former) + " released " + released + because(data.path("reason"));
            case "lock.denied":
                return who(data.path("session_id").asText()) + " was denied "
                        + file(data.path("file").asText(), data.path("session_id").asText())
                        + ", held by " + who(holderOf(data.path("holder")));
            case "shell.write_conflict":
                return who(data.path("session_id").asText()) + "'s command `" + data.path("command").asText()
                        + "` changed " + file(data.path("file").asText(), data.path("session_id").asText())
                        + ", held by " + who(data.path("holder").asText())
                        + (data.hasNonNull("restore") ? "; its holder can put its last version back with `"
                                + data.path("restore").asText() + "`" : "");
            case "version.restored":
                return file(data.path("file").asText(), data.path("holder").asText()) + " was put back to "
                        + who(data.path("holder").asText()) + "'s last version by "
                        + (data.path("by").asText().equals(data.path("holder").asText()) ? "its holder" : data.path("by").asText());
            case "named_lock.acquired":
                return "named lock " + data.path("named_lock").path("name").asText() + " taken by pid "
                        + data.path("named_lock").path("pid").asText();
            case "named_lock.released":
                return "named lock " + data.path("name").asText() + " released" + because(data.path("reason"));
            case "wait.started":
                JsonNode wait = data.path("wait");
                return who(wait.path("waiter").asText()) + " waits for " + who(wait.path("holder").asText()) + " on "
                        + file(wait.path("file").asText(), wait.path("waiter").asText())
                        + " (" + wait.path("kind").asText() + ")";
            case "wait.ended":
                return who(data.path("waiter").asText()) + " stopped waiting for "
                        + file(data.path("file").asText(), data.path("waiter").asText());
            case "negotiation.opened":
            case "negotiation.answered":
            case "negotiation.resolved":
            case "negotiation.timeout_eligible":
                return negotiation(kind.substring("negotiation.".length()), data.path("negotiation"));
            case "message.sent":
                String to = data.path("to").asText();
                return who(data.path("from").asText()) + " sent a message to "
                        + ("*".equals(to) ? "everyone" : who(to));
            case "plan.updated":
                return who(data.path("session_id").asText()) + " plans: "
                        + join(data.path("goal").asText(null), data.path("current_task").asText(null));
            case "deadlock.detected":
                return deadlock(data.path("deadlock"));
            case "deadlock.resolved":
                return "deadlock " + data.path("id").asText() + " resolved" + because(data.path("how"));
            case "stale.cleaned":
                return "freed " + data.path("files").size() + " lock(s) of " + who(data.path("session_id").asText())
                        + because(data.path("reason"));
            default:
                return kind + " " + data;
        }
    }

    private String negotiation(String what, JsonNode n) {
        String requester = n.path("requester").asText();
        String text = who(requester) + " asks " + who(n.path("holder").asText()) + " for "
                + file(n.path("file").asText(), requester) + " (" + n.path("urgency").asText("normal") + ")";
        switch (what) {
            case "opened":
                String reason = n.path("reason").asText("");
                return text + (reason.isEmpty() ? "" : ": " + reason);
            case "answered":
                return text + " — answered " + n.path("status").asText();
            case "timeout_eligible":
                return text + " — timed out; the requester may force-release";
            default:
                return text + " — " + n.path("status").asText("resolved");
        }
    }

    private String deadlock(JsonNode d) {
        List<String> cycle = new ArrayList<>();
        d.path("sessions").forEach(s -> cycle.add(who(s.asText())));
        if (!cycle.isEmpty()) {
            cycle.add(cycle.get(0));
        }
        List<String> files = new ArrayList<>();
        d.path("files").forEach(f -> files.add(file(f.asText(), d.path("victim").asText(null))));
        return "deadlock: " + String.join(" → ", cycle) + " on " + String.join(", ", files)
                + "; victim " + who(d.path("victim").asText());
    }

    private String who(String sessionId) {
        return sessionId == null || sessionId.isEmpty() ? "?" : board.label(sessionId);
    }

    private String file(String path, String sessionId) {
        String shown = board.shownPath(path, sessionId);
        return shown.isEmpty() ? "?" : shown;
    }

    private static String holderOf(JsonNode holder) {
        return holder.isTextual() ? holder.asText() : holder.path("session").asText(null);
    }

    private static String in(String cwd) {
        return cwd == null ? "" : " in " + cwd;
    }

    private static String because(JsonNode reason) {
        return reason.isTextual() && !reason.asText().isEmpty() ? " (" + reason.asText() + ")" : "";
    }

    private static String join(String goal, String task) {
        if (task == null || task.isBlank()) {
            return goal == null ? "" : goal;
        }
        return goal == null || goal.isBlank() ? task : goal + " — now: " + task;
    }

    private String handedOverBy(String actor) {
        if (actor.equals("dashboard")) {
            return "the supervisor (dashboard)";
        }
        if (actor.startsWith("supervisor:")) {
            return "the supervisor (" + actor.substring("supervisor:".length()) + ")";
        }
        if (actor.startsWith("supervisor ")) { // the supervisor token's actor: its name, then its process as the kernel sees it
            return "the " + actor;
        }
        return who(actor);
    }
}
