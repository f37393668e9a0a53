package dev.baton.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON API under arbitrary requests: every answer is below 500, is JSON, and a refusal has the
 * error shape. An input is a request line ({@code POST /v1/locks/acquire}) then the body's bytes.
 */
class ApiFuzzTest {

    private static final Set<String> METHODS = Set.of("GET", "POST", "DELETE", "PUT", "PATCH");
    /** Sessions a and b are this process's: its own connections prove it, so an input may act as either. */
    private static final Map<String, String> CALLER = Map.of();

    @TempDir static Path dir;
    static FuzzSidecar sidecar;
    static final FuzzRun run = new FuzzRun("api");

    @BeforeAll
    static void start() throws IOException {
        sidecar = FuzzSidecar.start(dir);
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        run.report();
    }

    @FuzzTest(maxDuration = "30s")
    @DictionaryFile(resourcePath = "/dev/baton/fuzz/json.dict")
    void everyRequestGetsA4xxOrBetterInTheErrorShape(byte[] input) throws Exception {
        run.executed();
        int newline = indexOf(input, (byte) '\n');
        String line = new String(input, 0, newline < 0 ? input.length : newline, StandardCharsets.UTF_8).strip();
        byte[] body = newline < 0 ? new byte[0] : Arrays.copyOfRange(input, newline + 1, input.length);
        int space = line.indexOf(' ');
        String method = space < 0 ? "POST" : line.substring(0, space);
        if (!METHODS.contains(method)) {
            method = "POST";
        }
        String target = space < 0 ? line : line.substring(space + 1).strip();
        int question = target.indexOf('?');
        String path = question < 0 ? target : target.substring(0, question);
        URI uri = sidecar.uri(path.startsWith("/") ? path : "/" + path, question < 0 ? null : target.substring(question + 1));
        if (uri == null) {
            return;
        }

        FuzzSidecar.Reply reply = sidecar.send(method, uri, body, CALLER);

        String request = method + " " + uri + " " + new String(body, StandardCharsets.UTF_8);
        assertThat(reply.timedOut()).as("no answer in %s to %s", FuzzSidecar.PATIENCE, request).isFalse();
        if (reply.unblocked()) {
            run.waited();
        }
        assertThat(reply.status()).as("status of %s", request).isBetween(200, 499);
        run.answered(reply.status());
        if (reply.body().length > 0) {
            JsonNode json = reply.json();
            if (reply.status() >= 400) {
                assertThat(json.path("error").path("code").asText()).as("error code of %s", request).isNotEmpty();
                assertThat(json.path("error").path("message").asText()).as("error message of %s", request).isNotBlank();
            }
        }
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
