package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Copilot CLI and Gemini CLI take a command rewritten by their PreToolUse hook as it is, without an explicit allow:
 * while another session holds files, Baton's hook has each shell command run through the wrapper, so that what no
 * check before the command can read still cannot change the held file. The rewritten command is then run as the
 * agent runs a command (bash -c), from this process, which the agent's session was registered for.
 */
class ShellRewriteTest extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";
    static final String WRITE_CART = "python3 -c \"open('" + CART + "', 'w').write('by the agent\\n')\"";

    StandInAgent holder;

    @BeforeEach
    void startHolder() throws Exception {
        holder = StandInAgent.start(harness, "holder", "aaaaaaaa-1111-4000-8000-000000000001");
    }

    @AfterEach
    void stopHolder() {
        holder.close();
    }

    private void holderEditsCart() throws Exception {
        assertThat(holder.bash("sed -i 's/original/by the holder/' " + CART).denied()).isFalse();
    }

    private ObjectNode copilotBash(String command) {
        ObjectNode args = Json.mapper().createObjectNode().put("command", command).put("description", "run it")
                .put("mode", "sync");
        return Json.mapper().createObjectNode().put("sessionId", HookHarness.COPILOT_SESSION)
                .put("timestamp", 1732262404000L).put("cwd", harness.repo().root().toString())
                .put("toolName", "bash").set("toolArgs", args);
    }

    private ObjectNode geminiShell(String command) {
        ObjectNode payload = Json.mapper().createObjectNode().put("session_id", "gem-5hell")
                .put("transcript_path", "/tmp/gemini-chat.json").put("cwd", harness.repo().root().toString())
                .put("hook_event_name", "BeforeTool").put("timestamp", "2026-11-23T23:55:32.710Z")
                .put("tool_name", "run_shell_command");
        payload.putObject("tool_input").put("command", command).put("description", "run it");
        return payload;
    }

    /** Runs a command as Copilot CLI and Gemini CLI run one: bash -c, in the repository. */
    private ScriptRun runAsTheAgent(String command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(harness.repo().root().toFile());
        builder.environment().put("BATON_HOME", harness.home().dir().toString());
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ScriptRun(process.exitValue(), out, err, java.time.Duration.ZERO);
    }

    @Test
    void whileAnotherSessionHoldsFilesCopilotsBashRunsThroughTheWrapperAndCannotChangeThem() throws Exception {
        holderEditsCart();

        ScriptRun pre = harness.run("copilot", "preToolUse", copilotBash(WRITE_CART).toString());

        JsonNode modified = pre.json().get("modifiedArgs");
        assertThat(pre.json().has("permissionDecision")).as("never an explicit allow").isFalse();
        assertThat(modified.get("description").asText()).isEqualTo("run it");
        assertThat(modified.get("mode").asText()).isEqualTo("sync");
        assertThat(modified.get("command").asText()).isEqualTo(HookHarness.SCRIPT.resolveSibling("baton-shell") + " -c '"
                + WRITE_CART.replace("'", "'\\''") + "'");
        ScriptRun run = runAsTheAgent(modified.get("command").asText());
        assertThat(run.exit()).isNotZero();
        assertThat(run.stderr()).contains("Read-only file system").contains(CART + " (held by claude-code session aaaaaaaa");
        assertThat(Files.readString(harness.repo().path(CART))).contains("by the holder").doesNotContain("by the agent");
    }

    @Test
    void whileAnotherSessionHoldsFilesGeminisShellRunsThroughTheWrapperAndCannotChangeThem() throws Exception {
        holderEditsCart();

        ScriptRun pre = harness.run("gemini", "BeforeTool", geminiShell(WRITE_CART).toString());

        assertThat(pre.json().has("decision")).as("never an explicit allow").isFalse();
        JsonNode input = pre.json().at("/hookSpecificOutput/tool_input");
        assertThat(pre.json().at("/hookSpecificOutput/hookEventName").asText()).isEqualTo("BeforeTool");
        assertThat(input.get("description").asText()).isEqualTo("run it");
        ScriptRun run = runAsTheAgent(input.get("command").asText());
        assertThat(run.exit()).isNotZero();
        assertThat(run.stderr()).contains("Read-only file system");
        assertThat(Files.readString(harness.repo().path(CART))).contains("by the holder");
    }

    @Test
    void withNothingHeldByAnotherSessionTheCommandIsLeftAsTheAgentWroteIt() throws Exception {
        ScriptRun copilot = harness.run("copilot", "preToolUse", copilotBash(WRITE_CART).toString());
        ScriptRun gemini = harness.run("gemini", "BeforeTool", geminiShell(WRITE_CART).toString());

        assertThat(copilot.silent()).as(copilot.stdout()).isTrue();
        assertThat(gemini.silent()).as(gemini.stdout()).isTrue();
    }

    @Test
    void aCommandTheChecksBeforeItCanReadIsStillDeniedRatherThanRewritten() throws Exception {
        holderEditsCart();

        ScriptRun pre = harness.run("copilot", "preToolUse", copilotBash("echo x > " + CART).toString());

        assertThat(pre.json().get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(pre.json().has("modifiedArgs")).isFalse();
    }
}
