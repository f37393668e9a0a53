package dev.baton.agent.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.HookPayload;
import dev.baton.session.AgentKind;
import java.util.List;

/** Claude Code: absolute {@code file_path} (NotebookEdit: {@code notebook_path}); subagents add {@code agent_id}. */
public final class ClaudeCodeDialect extends Dialect {

    public static final ClaudeCodeDialect INSTANCE = new ClaudeCodeDialect();

    private ClaudeCodeDialect() {
        super(AgentKind.CLAUDE_CODE, "claude", 100);
    }

    @Override
    protected List<String> filesWritten(String tool, JsonNode input) {
        return ClaudeStyle.editToolFiles(tool, input);
    }

    /** Asked last: the shape the others share is Claude Code's own, so what no other dialect claims is Claude's. */
    @Override
    protected boolean recognises(String agentArg, HookPayload payload) {
        return true;
    }

    /** Claude Code also shows context given at PostToolUseFailure (hookSpecificOutput.additionalContext). */
    @Override
    protected boolean carriesContext(EventKind event) {
        return event == EventKind.TOOL_FAILED || ClaudeStyle.carriesContext(event);
    }
}
