package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.session.AgentKind;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Claude Code: absolute {@code file_path} (NotebookEdit: {@code notebook_path}); subagents add {@code agent_id}. */
final class ClaudeCodeDialect implements Dialect {

    static final ClaudeCodeDialect INSTANCE = new ClaudeCodeDialect();

    private static final Set<String> EDIT_TOOLS = Set.of("edit", "write", "multiedit", "notebookedit");

    private ClaudeCodeDialect() {
    }

    @Override
    public AgentKind agent() {
        return AgentKind.CLAUDE_CODE;
    }

    @Override
    public HookCall read(HookPayload payload, String eventArg) {
        return ClaudeStyle.read(payload, eventArg, agent(), ClaudeCodeDialect::filesWritten);
    }

    static List<String> filesWritten(String tool, JsonNode input) {
        return EDIT_TOOLS.contains(tool.toLowerCase(Locale.ROOT)) ? ClaudeStyle.requireFile(tool, input) : null;
    }

    @Override
    public boolean carriesContext(EventKind event) {
        return ClaudeStyle.carriesContext(event);
    }

    @Override
    public HookOutput render(HookReply reply, EventKind event) {
        return ClaudeStyle.render(reply, event);
    }
}
