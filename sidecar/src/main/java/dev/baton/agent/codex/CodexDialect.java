package dev.baton.agent.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.EventNames;
import dev.baton.hook.HookPayload;
import dev.baton.hook.PatchPaths;
import dev.baton.session.AgentKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * OpenAI Codex CLI: Claude-style payloads (plus {@code turn_id}, absent from SessionStart and SessionEnd); edits
 * arrive as {@code apply_patch} with the patch in {@code tool_input.command} (a string, or an argv array whose
 * last word is the patch), or as a shell call ({@code Bash}, {@code exec_command}) whose command is an
 * apply_patch heredoc; no PostToolUse follows the latter, so the turn's end finishes that edit.
 */
public final class CodexDialect extends Dialect {

    /** The kind of Codex CLI's sessions, as the API and the database name it. */
    public static final AgentKind KIND = new AgentKind("codex");

    /** Codex names its events as Claude Code does (0.169 sends five of them). */
    private static final EventNames NAMES = new EventNames(Map.ofEntries(
            Map.entry("SessionStart", EventKind.SESSION_START),
            Map.entry("PreToolUse", EventKind.PRE_TOOL),
            Map.entry("PostToolUse", EventKind.POST_TOOL),
            Map.entry("PostToolUseFailure", EventKind.TOOL_FAILED),
            Map.entry("PermissionDenied", EventKind.TOOL_FAILED),
            Map.entry("Stop", EventKind.STOP),
            Map.entry("SubagentStop", EventKind.SUBAGENT_STOP),
            Map.entry("SessionEnd", EventKind.SESSION_END)));

    public static final CodexDialect INSTANCE = new CodexDialect();

    /** The shell tools Codex reports (events.md); a command of theirs is an edit only as an apply_patch heredoc. */
    public static final Set<String> SHELL_TOOLS = Set.of("bash", "exec_command", "shell", "local_shell");

    private CodexDialect() {
        super(KIND, "codex", 40);
    }

    /** Codex CLI sends no PostToolUse for its shell commands. */
    @Override
    protected boolean reportsShellCommandEnd() {
        return false;
    }

    /** Codex's payloads carry a {@code turn_id}, which Claude Code's do not. */
    @Override
    protected boolean recognises(String agentArg, HookPayload payload) {
        return "codex".equals(agentArg) || payload.has("turn_id");
    }

    /**
     * Codex shows a denial as "Command blocked by PreToolUse hook: REASON. Command: …", with a period of its own after
     * the reason: the reason goes to it without its last one, so the model does not read "later.. Command".
     */
    @Override
    protected ObjectNode denial(String reason) {
        return super.denial(reason.endsWith(".") ? reason.substring(0, reason.length() - 1) : reason);
    }

    @Override
    protected List<String> filesWritten(String tool, JsonNode input) {
        if (SHELL_TOOLS.contains(tool.toLowerCase(Locale.ROOT))) {
            String script = shellScript(input);
            return script == null ? null : PatchPaths.ofShellCommand(script).orElse(null);
        }
        String patch = patchIn(input);
        if (patch != null) {
            return PatchPaths.of(patch);
        }
        return ClaudeStyle.editToolFiles(tool, input);
    }

    /** The command a shell tool runs: the string, or the last word of an argv such as {@code [bash, -lc, SCRIPT]}. */
    private static String shellScript(JsonNode input) {
        JsonNode command = input == null ? null : input.get("command");
        if (command != null && command.isArray() && !command.isEmpty()) {
            command = command.get(command.size() - 1);
        }
        return command != null && command.isTextual() ? command.textValue() : null;
    }

    private static String patchIn(JsonNode input) {
        if (input == null || !input.isObject()) {
            return null;
        }
        List<JsonNode> candidates = new ArrayList<>();
        JsonNode command = input.get("command");
        if (command != null && command.isArray()) {
            command.forEach(candidates::add);
        } else if (command != null) {
            candidates.add(command);
        }
        candidates.add(input.get("input"));
        candidates.add(input.get("patch"));
        for (JsonNode candidate : candidates) {
            if (candidate != null && candidate.isTextual() && PatchPaths.looksLikePatch(candidate.textValue())) {
                return candidate.textValue();
            }
        }
        return null;
    }

    @Override
    protected EventNames eventNames() {
        return NAMES;
    }
}
