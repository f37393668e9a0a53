package dev.baton.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP endpoint under arbitrary JSON-RPC bodies in an initialized MCP session: every answer is
 * below 500, every JSON-RPC answer is well formed, and no call ends in an internal failure. In an
 * input, {@code @KEY_A@} and {@code @KEY_B@} stand for the keys of sessions a and b.
 */
class McpFuzzTest {

    /** JSON-RPC's "internal error": a tool or method that failed instead of refusing. */
    private static final int INTERNAL_ERROR = -32603;

    @TempDir static Path dir;
    static FuzzSidecar sidecar;
    static Map<String, String> headers;
    static URI endpoint;
    static final FuzzRun run = new FuzzRun("mcp");

    @BeforeAll
    static void start() throws Exception {
        sidecar = FuzzSidecar.start(dir);
        endpoint = sidecar.uri("/mcp", null);
        TestSidecar.Reply reply = sidecar.sidecar().post("/mcp", Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize",
                "params", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                        "clientInfo", Map.of("name", "fuzz", "version", "1"))), Map.of());
        String session = reply.headers().firstValue("Mcp-Session-Id").orElseThrow();
        headers = Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-06-18",
                "Accept", "application/json, text/event-stream");
    }

    @AfterAll
    static void stop() {
        sidecar.close();
        run.report();
    }

    @FuzzTest(maxDuration = "30s")
    @DictionaryFile(resourcePath = "/dev/baton/fuzz/json.dict")
    void everyMessageGetsAWellFormedAnswer(byte[] input) throws Exception {
        run.executed();
        String text = new String(input, StandardCharsets.ISO_8859_1)
                .replace("@KEY_A@", sidecar.a().key())
                .replace("@KEY_B@", sidecar.b().key());
        byte[] body = text.getBytes(StandardCharsets.ISO_8859_1);

        FuzzSidecar.Reply reply = sidecar.send("POST", endpoint, body, headers);

        String request = new String(body, StandardCharsets.UTF_8);
        assertThat(reply.timedOut()).as("no answer in %s to %s", FuzzSidecar.PATIENCE, request).isFalse();
        if (reply.unblocked()) {
            run.waited();
        }
        assertThat(reply.status()).as("status of %s", request).isBetween(200, 499);
        run.answered(reply.status());
        if (reply.body().length == 0) {
            assertThat(reply.status()).as("an empty answer to %s", request).isEqualTo(202);
            return;
        }
        JsonNode json = reply.json();
        if (json.isArray()) {
            json.forEach(response -> checkResponse(response, request));
        } else {
            checkResponse(json, request);
        }
    }

    private static void checkResponse(JsonNode response, String request) {
        assertThat(response.path("jsonrpc").asText()).as("jsonrpc of the answer to %s", request).isEqualTo("2.0");
        assertThat(response.has("id")).as("id of the answer to %s", request).isTrue();
        assertThat(response.has("result") != response.has("error")).as("result xor error for %s", request).isTrue();
        if (response.has("error")) {
            JsonNode error = response.get("error");
            assertThat(error.path("code").isInt()).as("error code for %s", request).isTrue();
            assertThat(error.path("code").asInt()).as("error code for %s", request).isNotEqualTo(INTERNAL_ERROR);
            assertThat(error.path("message").asText()).as("error message for %s", request).isNotBlank();
            return;
        }
        JsonNode result = response.get("result");
        if (result.path("isError").asBoolean()) {
            assertThat(result.path("content").path(0).path("text").asText()).as("tool error for %s", request)
                    .isNotBlank().doesNotStartWith("INTERNAL");
        }
    }
}
