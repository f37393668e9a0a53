package dev.baton.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import dev.baton.lock.HeldCopy;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.Holder;
import java.io.PrintWriter;
import java.time.Instant;

/** Turns sidecar replies into the CLI's two faces: sentences for people, JSON for scripts. */
final class Output {

    private Output() {
    }

    /** Prints {@code reply} as JSON for {@code --json}; otherwise {@code sentences} say it for people. */
    static void print(PrintWriter out, JsonNode reply, boolean json, Runnable sentences) {
        if (json) {
            json(out, reply);
        } else {
            sentences.run();
        }
    }

    private static void json(PrintWriter out, JsonNode node) {
        try {
            out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node));
        } catch (JsonProcessingException e) {
            throw new CliException("cannot print the reply: " + e.getMessage());
        }
    }

    static String held(String file, JsonNode holder) {
        try {
            return HeldMessage.of(relative(file), Json.mapper().treeToValue(holder, Holder.class), Instant.now());
        } catch (JsonProcessingException e) {
            return file + " is held by session " + holder.path("session").asText("?");
        }
    }

    /** A file whose lock is held through its copy in another worktree or clone of the repository. */
    static String heldCopy(String file, JsonNode copy) {
        try {
            return HeldMessage.ofCopy(relative(file), Json.mapper().treeToValue(copy, HeldCopy.class), Instant.now());
        } catch (JsonProcessingException e) {
            return file + " is the same file as " + copy.path("file").asText("?") + ", which is held";
        }
    }

    /** An instant of the sidecar's as a person reads it: "3 min ago"; "-" when there is none. */
    static String ago(JsonNode instant) {
        if (!instant.isTextual()) {
            return "-";
        }
        try {
            return HeldMessage.ago(Instant.parse(instant.asText()), Instant.now()) + " ago";
        } catch (java.time.format.DateTimeParseException e) {
            return instant.asText();
        }
    }

    /** Files are shown relative to the current directory when they are inside it. */
    static String relative(String file) {
        String cwd = System.getProperty("user.dir");
        return file.startsWith(cwd + "/") ? file.substring(cwd.length() + 1) : file;
    }
}
