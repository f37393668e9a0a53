package dev.baton.agent.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.e2e.AgentClis;
import dev.baton.e2e.AgentProcess;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Machine;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claude Code in print mode with stream-json input: one session that stays alive across prompts until its input
 * closes, talking only to the fake model.
 */
public final class Claude implements AutoCloseable {

    final FakeModel model;
    final AgentProcess process;
    private int turns;

    public Claude(Machine machine, FakeModel model, Map<String, String> extraEnv) {
        this(machine, model, extraEnv, "bypassPermissions");
    }

    /** {@code permissionMode} "default": in print mode every edit needs a permission rule, so edits are refused. */
    public Claude(Machine machine, FakeModel model, Map<String, String> extraEnv, String permissionMode) {
        this(machine, machine.repo, model, extraEnv, permissionMode);
    }

    /** A session started in {@code dir}, a working tree of the machine's repository (e.g. a linked worktree). */
    public Claude(Machine machine, Path dir, FakeModel model) {
        this(machine, dir, model, Map.of(), "bypassPermissions");
    }

    private Claude(Machine machine, Path dir, FakeModel model, Map<String, String> extraEnv, String permissionMode) {
        this.model = model;
        model.speaks(new AnthropicWire());
        Map<String, String> env = new HashMap<>(Map.of(
                "ANTHROPIC_BASE_URL", model.url(),
                "ANTHROPIC_API_KEY", "sk-ant-e2e",
                "DISABLE_AUTOUPDATER", "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1",
                "DISABLE_TELEMETRY", "1",
                // Claude Code refuses bypassPermissions as root outside a sandbox; CI runs as root in a container.
                "IS_SANDBOX", "1"));
        env.putAll(extraEnv);
        process = new AgentProcess("claude", machine, dir, List.of(AgentClis.bin("claude").toString(), "-p",
                "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
                "--permission-mode", permissionMode), env);
    }

    public Claude(Machine machine, FakeModel model) {
        this(machine, model, Map.of());
    }

    /** Sends a prompt and waits until the turn it starts has ended (the CLI printed its result). */
    public void prompt(String text) {
        promptWithoutWaiting(text);
        awaitTurnEnd();
    }

    /** Sends a prompt; the test waits for the turn's end itself (e.g. after resuming a paused script). */
    public void promptWithoutWaiting(String text) {
        process.send(FakeModel.JSON.createObjectNode().put("type", "user")
                .set("message", FakeModel.JSON.createObjectNode().put("role", "user").put("content", text)).toString());
        turns++;
    }

    public void awaitTurnEnd() {
        process.awaitLines(Claude::isResult, turns);
    }

    /** The line stream-json output ends each turn with. */
    private static boolean isResult(String line) {
        if (!line.startsWith("{")) {
            return false;
        }
        try {
            return "result".equals(FakeModel.JSON.readTree(line).path("type").asText());
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The session id Claude Code printed with its first output. */
    public String sessionId() {
        Matcher matcher = Pattern.compile("\"session_id\":\"([0-9a-f-]{36})\"").matcher(process.output());
        assertThat(matcher.find()).as("a session id in " + process.output()).isTrue();
        return matcher.group(1);
    }

    /** Ends the session the way a user does: no more input. Waits for the CLI (and its SessionEnd hook). */
    public void end() {
        process.end();
    }

    @Override
    public void close() {
        process.close();
    }
}
