package dev.baton.agent.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.EventNames;
import dev.baton.hook.HookPayload;
import dev.baton.session.AgentKind;
import java.util.List;
import java.util.Map;

/** Claude Code: absolute {@code file_path} (NotebookEdit: {@code notebook_path}); subagents add {@code agent_id}. */
public final class ClaudeCodeDialect extends Dialect {

    /** The kind of Claude Code's sessions, as the API and the database name it. */
    public static final AgentKind KIND = new AgentKind("claude-code");

    /** Claude Code's events, as its settings name them and its payloads carry them. */
    private static final EventNames NAMES = new EventNames(Map.ofEntries(
            Map.entry("SessionStart", EventKind.SESSION_START),
            Map.entry("PreToolUse", EventKind.PRE_TOOL),
            Map.entry("PostToolUse", EventKind.POST_TOOL),
            Map.entry("PostToolUseFailure", EventKind.TOOL_FAILED),
            Map.entry("PermissionDenied", EventKind.TOOL_FAILED),
            Map.entry("Stop", EventKind.STOP),
            Map.entry("SubagentStop", EventKind.SUBAGENT_STOP),
            Map.entry("SessionEnd", EventKind.SESSION_END)));

    public static final ClaudeCodeDialect INSTANCE = new ClaudeCodeDialect();

    private ClaudeCodeDialect() {
        super(KIND, "claude", 100);
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

    @Override
    protected EventNames eventNames() {
        return NAMES;
    }
}
