package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import dev.baton.session.AgentKind;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Gemini CLI: Claude-style payloads with its own event names (BeforeTool, AfterTool, AfterAgent); a denial is
 * {@code {"decision":"deny","reason":…}}, and context is shown for SessionStart and AfterTool only
 * (hooks reference, geminicli.com/docs/hooks/reference).
 */
final class GeminiDialect implements Dialect {

    static final GeminiDialect INSTANCE = new GeminiDialect();

    private static final Set<String> EDIT_TOOLS = Set.of("write_file", "replace", "edit");

    private GeminiDialect() {
    }

    @Override
    public AgentKind agent() {
        return AgentKind.GEMINI;
    }

    @Override
    public HookCall read(HookPayload payload, String eventArg) {
        return ClaudeStyle.read(payload, eventArg, agent(), GeminiDialect::filesWritten);
    }

    private static List<String> filesWritten(String tool, JsonNode input) {
        return EDIT_TOOLS.contains(tool.toLowerCase(Locale.ROOT)) ? ClaudeStyle.requireFile(tool, input) : null;
    }

    @Override
    public boolean carriesContext(EventKind event) {
        return event == EventKind.SESSION_START || event == EventKind.POST_TOOL;
    }

    @Override
    public HookOutput render(HookReply reply, EventKind event) {
        if (reply instanceof HookReply.Deny deny && event == EventKind.PRE_TOOL) {
            ObjectNode json = Json.mapper().createObjectNode().put("decision", "deny").put("reason", deny.reason());
            return HookOutput.stdout(ClaudeStyle.line(json));
        }
        if (reply instanceof HookReply.Context context && carriesContext(event)) {
            String name = event == EventKind.POST_TOOL ? "AfterTool" : "SessionStart";
            return HookOutput.stdout(ClaudeStyle.line(ClaudeStyle.context(name, context.text())));
        }
        return HookOutput.NOTHING;
    }
}
