package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each agent's shell tool, in its own payload shape, writing a file a stand-in agent holds: each is denied in
 * its own answer shape, and the file stays as the holder left it.
 */
class ShellToolsOfEveryAgentTest extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";

    StandInAgent holder;

    @BeforeEach
    void holderEditsCart() throws Exception {
        holder = StandInAgent.start(harness, "holder", "aaaaaaaa-1111-4000-8000-000000000001");
        assertThat(holder.bash("sed -i 's/original/by the holder/' " + CART).denied()).isFalse();
    }

    @AfterEach
    void stopHolder() {
        holder.close();
    }

    private void assertCartUnchanged() throws Exception {
        assertThat(Files.readString(harness.repo().path(CART))).contains("by the holder");
        assertThat(harness.holderOf(CART)).contains(holder.sessionId());
    }

    @Test
    void copilotsBashToolWithItsArgumentsAsAJsonStringIsDeniedInCopilotsShape() throws Exception {
        ObjectNode args = Json.mapper().createObjectNode().put("command", "sed -i 's/x/y/' " + CART)
                .put("description", "edit");
        ObjectNode payload = Json.mapper().createObjectNode().put("sessionId", HookHarness.COPILOT_SESSION)
                .put("timestamp", 1732262404000L).put("cwd", harness.repo().root().toString())
                .put("toolName", "bash").put("toolArgs", args.toString());

        ScriptRun run = harness.run("copilot", "preToolUse", payload.toString());

        assertThat(run.json().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(run.json().get("permissionDecisionReason").asText()).contains(CART + ", which is held by claude-code session");
        assertCartUnchanged();
    }

    @Test
    void geminisRunShellCommandInADirectoryOfItsOwnIsDeniedInGeminisShape() throws Exception {
        ObjectNode payload = Json.mapper().createObjectNode().put("session_id", "gem-5hell")
                .put("transcript_path", "/tmp/gemini-chat.json").put("cwd", harness.repo().root().toString())
                .put("hook_event_name", "BeforeTool").put("timestamp", "2026-11-23T23:55:32.710Z")
                .put("tool_name", "run_shell_command");
        payload.putObject("tool_input").put("command", "echo changed > Cart.java").put("description", "overwrite")
                .put("dir_path", "src/main/java/shop");

        ScriptRun run = harness.run("gemini", "BeforeTool", payload.toString());

        assertThat(run.json().get("decision").asText()).isEqualTo("deny");
        assertThat(run.json().get("reason").asText()).contains("`echo changed > Cart.java` would write Cart.java, which is held by");
        assertCartUnchanged();
    }

    @Test
    void codexsExecCommandGivenAsAnArgumentVectorIsDeniedInClaudesShape() throws Exception {
        ObjectNode payload = Json.mapper().createObjectNode().put("session_id", "019a7c1e-c0de-7000-8000-5he11")
                .put("turn_id", "019a7c1e-turn").put("transcript_path", "/tmp/rollout.jsonl")
                .put("cwd", harness.repo().root().toString()).put("hook_event_name", "PreToolUse")
                .put("tool_name", "exec_command").put("tool_use_id", "call_9");
        payload.putObject("tool_input").putArray("command").add("bash").add("-lc").add("perl -pi -e 's/a/b/' " + CART);

        ScriptRun run = harness.run("codex", "PreToolUse", payload.toString());

        assertThat(run.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(run.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("`perl -pi -e 's/a/b/' " + CART + "` would write " + CART + ", which is held by");
        assertCartUnchanged();
    }

    @Test
    void codexsApplyPatchHereDocumentThroughBashStaysAnEditOfThePatchedFile() throws Exception {
        String patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: " + CART + "\n@@\n-a\n+b\n*** End Patch\nEOF\n";
        ObjectNode payload = Json.mapper().createObjectNode().put("session_id", "019a7c1e-c0de-7000-8000-pa7c4")
                .put("turn_id", "019a7c1e-turn").put("transcript_path", "/tmp/rollout.jsonl")
                .put("cwd", harness.repo().root().toString()).put("hook_event_name", "PreToolUse")
                .put("tool_name", "Bash").put("tool_use_id", "call_2");
        payload.putObject("tool_input").put("command", patch);

        ScriptRun run = harness.run("codex", "PreToolUse", payload.toString());

        assertThat(run.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .startsWith("Baton blocked this edit: " + CART + " is held by");
        assertCartUnchanged();
    }
}
