package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.session.AgentKind;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Claude Code: absolute {@code file_path} (NotebookEdit: {@code notebook_path}); subagents add {@code agent_id}. */
final class ClaudeCodeDialect extends Dialect {

    static final ClaudeCodeDialect INSTANCE = new ClaudeCodeDialect();

    private static final Set<String> EDIT_TOOLS = Set.of("edit", "write", "multiedit", "notebookedit");

    private ClaudeCodeDialect() {
        super(AgentKind.CLAUDE_CODE);
    }

    @Override
    List<String> filesWritten(String tool, JsonNode input) {
        return EDIT_TOOLS.contains(tool.toLowerCase(Locale.ROOT)) ? ClaudeStyle.requireFile(tool, input) : null;
    }

    /** Claude Code also shows context given at PostToolUseFailure (hookSpecificOutput.additionalContext). */
    @Override
    boolean carriesContext(EventKind event) {
        return event == EventKind.TOOL_FAILED || ClaudeStyle.carriesContext(event);
    }
}
