package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Malformed hook calls: the endpoint answers a 4xx with the usual JSON error (never a 5xx) and changes nothing;
 * the script then blocks an edit with the sidecar's message (exit 2) and lets any other event go ahead (exit 0).
 */
class BadPayloadHookTest extends HookFixture {

    private void assertRefused(String query, String payload, String messagePart) throws Exception {
        HttpResponse<String> response = harness.post(query, payload.getBytes(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        JsonNode error = Json.mapper().readTree(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("VALIDATION");
        assertThat(error.get("message").asText()).contains(messagePart);
        assertThat(harness.lockCount()).isZero();
        assertThat(harness.baton().sessions().list()).isEmpty();
    }

    @Test
    void aPayloadThatIsNotJsonIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse", "not json {", "the hook payload is not valid JSON");
    }

    @Test
    void aJsonArrayIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse", "[" + harness.sample("claude-pretooluse-edit.json") + "]",
                "the hook payload must be a JSON object, was array");
    }

    @Test
    void anEmptyPayloadIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse", "", "the hook payload is empty");
    }

    @Test
    void aPayloadWithoutSessionIdIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace("\"session_id\"", "\"sessionid\""),
                "has no session_id");
    }

    @Test
    void anEditWithoutAFileIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace("\"file_path\"", "\"target\""),
                "the Edit call names no file");
    }

    @Test
    void aFieldOfTheWrongTypeIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace("\"" + CLAUDE_SESSION + "\"", "42"),
                "field 'session_id' of the hook payload must be a string, was number");
    }

    @Test
    void aPathWithANulCharacterIsRefused() throws Exception {
        assertRefused("agent=claude&event=PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace("Cart.java", "Cart\\u0000.java"),
                "contains a NUL byte");
    }

    @Test
    void anUnknownAgentIsRefused() throws Exception {
        assertRefused("agent=cursor&event=PreToolUse", harness.sample("claude-pretooluse-edit.json"),
                "agent must be one of claude, codex, copilot, gemini, opencode");
    }

    @Test
    void aCopilotPayloadWithoutItsEventNameIsRefused() throws Exception {
        assertRefused("agent=copilot", harness.sample("copilot-pretooluse-edit.json"), "pass the hook's config key");
    }

    @Test
    void nestingBeyondSixtyFourLevelsIsRefused() throws Exception {
        String deep = "[".repeat(100) + "]".repeat(100);
        assertRefused("agent=claude&event=PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace("\"replace_all\":false", "\"deep\":" + deep),
                "not valid JSON");
    }

    @Test
    void tenLevelsOfNestingInAnUnknownFieldAreJustIgnored() throws Exception {
        String nested = "{\"a\":".repeat(10) + "1" + "}".repeat(10);
        String payload = harness.sample("claude-pretooluse-edit.json").replace("\"replace_all\":false", "\"extra\":" + nested);

        HttpResponse<String> response = harness.post("agent=claude&event=PreToolUse", payload.getBytes(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue(HookRoutes.EXIT_HEADER)).contains("0");
        assertThat(response.body()).isEmpty();
        assertThat(harness.holderOf("src/main/java/shop/Cart.java")).contains(CLAUDE_SESSION);
    }

    @Test
    void theScriptBlocksAnEditTheSidecarRefusesAndSaysWhy() throws Exception {
        ScriptRun run = harness.run("claude", "PreToolUse", "not json {");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).startsWith("Baton could not check this edit: the sidecar refused the hook call (HTTP 400):")
                .contains("the hook payload is not valid JSON");
    }

    @Test
    void theScriptBlocksAnEditWhosePathHasAnEscapedNulCharacter() throws Exception {
        ScriptRun run = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace("Cart.java", "Cart\\u0000.java"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).contains("HTTP 400").contains("contains a NUL byte");
    }

    @Test
    void theScriptDropsARawNulByteWhichNoAgentSendsSinceJsonEscapesIt() throws Exception {
        byte[] withNul = harness.sample("claude-pretooluse-edit.json").replace("Cart.java", "Cart\0.java")
                .getBytes(StandardCharsets.UTF_8);

        ScriptRun run = harness.run("claude", "PreToolUse", withNul, env());

        assertThat(run.silent()).isTrue();
        assertThat(harness.holderOf("src/main/java/shop/Cart.java")).contains(CLAUDE_SESSION);
    }

    @Test
    void theScriptLetsOtherEventsGoAheadWhenTheSidecarRefusesThem() throws Exception {
        ScriptRun stop = harness.run("claude", "Stop", "[]");
        ScriptRun post = harness.run("copilot", "postToolUse", "not json");

        assertThat(stop.silent()).isTrue();
        assertThat(post.silent()).isTrue();
    }

    @Test
    void theScriptFailsOpenOnARefusalWhenAskedTo() throws Exception {
        assertThat(harness.run("claude", "PreToolUse", "not json", env("BATON_FAIL_OPEN", "1")).silent()).isTrue();
    }

    @Test
    void aWrongTokenIsRefusedAndTheEditBlocked() throws Exception {
        HookHarness.overwriteToken(harness.home(), "0".repeat(64));

        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).contains("HTTP 401").contains("UNAUTHORIZED");
        assertThat(harness.lockCount()).isZero();
    }
}
