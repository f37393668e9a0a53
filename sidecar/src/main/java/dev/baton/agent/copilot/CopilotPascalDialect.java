package dev.baton.agent.copilot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.EventNames;
import dev.baton.hook.HookPayload;
import java.util.List;
import java.util.Map;

/**
 * Copilot CLI running the hooks of {@code .claude/settings.json}: Claude-style names and fields, an ISO
 * timestamp, no transcript_path, and Copilot's own tool names ({@code path} instead of {@code file_path}).
 * Which answer shape it reads in this mode is not pinned down, so a reply carries both Copilot's flat fields
 * and Claude's hookSpecificOutput; each reader takes its own and ignores the other.
 */
public final class CopilotPascalDialect extends Dialect {

    /** The PascalCase names Copilot CLI sends to a project's Claude Code hooks, and its own. */
    private static final EventNames NAMES = new EventNames(Map.ofEntries(
            Map.entry("sessionStart", EventKind.SESSION_START),
            Map.entry("preToolUse", EventKind.PRE_TOOL),
            Map.entry("postToolUse", EventKind.POST_TOOL),
            Map.entry("postToolUseFailure", EventKind.TOOL_FAILED),
            Map.entry("permissionDenied", EventKind.TOOL_FAILED),
            Map.entry("errorOccurred", EventKind.TOOL_FAILED),
            Map.entry("stop", EventKind.STOP),
            Map.entry("agentStop", EventKind.STOP),
            Map.entry("subagentStop", EventKind.SUBAGENT_STOP),
            Map.entry("sessionEnd", EventKind.SESSION_END)));

    public static final CopilotPascalDialect INSTANCE = new CopilotPascalDialect();

    private CopilotPascalDialect() {
        super(CopilotDialect.KIND, "copilot", 50);
    }

    /** Copilot's Claude-compatible payloads carry an ISO timestamp and no transcript_path. */
    @Override
    protected boolean recognises(String agentArg, HookPayload payload) {
        return "copilot".equals(agentArg) || !payload.has("transcript_path") && payload.has("timestamp");
    }

    @Override
    protected List<String> filesWritten(String tool, JsonNode input) {
        List<String> claude = ClaudeStyle.editToolFiles(tool, input);
        return claude != null ? claude : CopilotDialect.INSTANCE.filesWritten(tool, input);
    }

    @Override
    protected ObjectNode denial(String reason) {
        ObjectNode json = super.denial(reason);
        json.setAll(CopilotDialect.INSTANCE.denial(reason));
        return json;
    }

    @Override
    protected ObjectNode context(EventKind event, String text) {
        return super.context(event, text).put("additionalContext", text);
    }

    @Override
    protected EventNames eventNames() {
        return NAMES;
    }
}
