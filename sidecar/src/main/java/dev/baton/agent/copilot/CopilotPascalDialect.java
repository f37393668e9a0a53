package dev.baton.agent.copilot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.HookPayload;
import dev.baton.session.AgentKind;
import java.util.List;

/**
 * Copilot CLI running the hooks of {@code .claude/settings.json}: Claude-style names and fields, an ISO
 * timestamp, no transcript_path, and Copilot's own tool names ({@code path} instead of {@code file_path}).
 * Which answer shape it reads in this mode is not pinned down, so a reply carries both Copilot's flat fields
 * and Claude's hookSpecificOutput; each reader takes its own and ignores the other.
 */
public final class CopilotPascalDialect extends Dialect {

    public static final CopilotPascalDialect INSTANCE = new CopilotPascalDialect();

    private CopilotPascalDialect() {
        super(AgentKind.COPILOT_CLI, "copilot", 50);
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
}
