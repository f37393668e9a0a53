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
final class CopilotPascalDialect extends Dialect {

    static final CopilotPascalDialect INSTANCE = new CopilotPascalDialect();

    private CopilotPascalDialect() {
        super(AgentKind.COPILOT_CLI);
    }

    @Override
    List<String> filesWritten(String tool, JsonNode input) {
        List<String> claude = ClaudeCodeDialect.INSTANCE.filesWritten(tool, input);
        return claude != null ? claude : CopilotDialect.INSTANCE.filesWritten(tool, input);
    }

    @Override
    ObjectNode denial(String reason) {
        ObjectNode json = super.denial(reason);
        json.setAll(CopilotDialect.INSTANCE.denial(reason));
        return json;
    }

    @Override
    ObjectNode context(EventKind event, String text) {
        return super.context(event, text).put("additionalContext", text);
    }
}
