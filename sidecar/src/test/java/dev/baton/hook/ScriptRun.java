package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** One run of the real hook script: its exit code, what it printed, and how long it took. */
record ScriptRun(int exit, String stdout, String stderr, Duration elapsed) {

    JsonNode json() {
        try {
            return Json.mapper().readTree(stdout);
        } catch (IOException e) {
            throw new UncheckedIOException("stdout is not JSON: " + stdout, e);
        }
    }

    boolean silent() {
        return exit == 0 && stdout.isEmpty() && stderr.isEmpty();
    }
}
