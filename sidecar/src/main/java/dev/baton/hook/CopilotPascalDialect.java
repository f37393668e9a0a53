package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.session.AgentKind;
import java.util.List;

/**
 * Copilot CLI running the hooks of {@code .claude/settings.json}: Claude-style names and fields, an ISO
 * timestamp, no transcript_path, and Copilot's own tool names ({@code path} instead of {@code file_path}).
 * Which answer shape it reads in this mode is not pinned down, so a reply carries both Copilot's flat fields
 * and Claude's hookSpecificOutput; each reader takes its own and ignores the other.
 */
final class CopilotPascalDialect implements Dialect {

    static final CopilotPascalDialect INSTANCE = new CopilotPascalDialect();

    private CopilotPascalDialect() {
    }

    @Override
    public AgentKind agent() {
        return AgentKind.COPILOT_CLI;
    }

    @Override
    public HookCall read(HookPayload payload, String eventArg) {
        return ClaudeStyle.read(payload, eventArg, agent(), CopilotPascalDialect::filesWritten);
    }

    private static List<String> filesWritten(String tool, JsonNode input) {
        List<String> claude = ClaudeCodeDialect.filesWritten(tool, input);
        return claude != null ? claude : CopilotDialect.filesWritten(tool, input);
    }

    @Override
    public boolean carriesContext(EventKind event) {
        return ClaudeStyle.carriesContext(event);
    }

    @Override
    public HookOutput render(HookReply reply, EventKind event) {
        if (reply instanceof HookReply.Deny deny && event == EventKind.PRE_TOOL) {
            ObjectNode json = ClaudeStyle.denial(deny.reason());
            json.setAll(CopilotDialect.denial(deny.reason()));
            return HookOutput.stdout(ClaudeStyle.line(json));
        }
        if (reply instanceof HookReply.Context context && carriesContext(event)) {
            ObjectNode json = ClaudeStyle.context(ClaudeStyle.eventName(event), context.text());
            json.put("additionalContext", context.text());
            return HookOutput.stdout(ClaudeStyle.line(json));
        }
        return HookOutput.NOTHING;
    }
}
