package dev.baton.agent.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.EventNames;
import dev.baton.hook.HookPayload;
import dev.baton.http.Json;
import dev.baton.session.AgentKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Gemini CLI: Claude-style payloads with its own event names (BeforeTool, AfterTool, AfterAgent); a denial is
 * {@code {"decision":"deny","reason":…}}, and context is shown for SessionStart and AfterTool only
 * (hooks reference, geminicli.com/docs/hooks/reference).
 */
public final class GeminiDialect extends Dialect {

    /** The kind of Gemini CLI's sessions, as the API and the database name it. */
    public static final AgentKind KIND = new AgentKind("gemini");

    /** Gemini CLI's own names (BeforeTool, AfterTool, AfterAgent). */
    private static final EventNames NAMES = new EventNames(Map.ofEntries(
            Map.entry("SessionStart", EventKind.SESSION_START),
            Map.entry("BeforeTool", EventKind.PRE_TOOL),
            Map.entry("AfterTool", EventKind.POST_TOOL),
            Map.entry("AfterAgent", EventKind.STOP),
            Map.entry("SessionEnd", EventKind.SESSION_END)));

    public static final GeminiDialect INSTANCE = new GeminiDialect();

    private static final Set<String> EVENTS = Set.of("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
            "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress", "Notification");

    private static final Set<String> EDIT_TOOLS = Set.of("write_file", "replace", "edit");

    private GeminiDialect() {
        super(KIND, "gemini", 30);
    }

    /** Gemini CLI's own event names mark its payloads whichever hook command they reach. */
    @Override
    protected boolean recognises(String agentArg, HookPayload payload) {
        String event = payload.text("hook_event_name");
        return "gemini".equals(agentArg) || event != null && EVENTS.contains(event);
    }

    @Override
    protected List<String> filesWritten(String tool, JsonNode input) {
        return EDIT_TOOLS.contains(tool.toLowerCase(Locale.ROOT)) ? ClaudeStyle.requireFile(tool, input) : null;
    }

    @Override
    protected boolean carriesContext(EventKind event) {
        return event == EventKind.SESSION_START || event == EventKind.POST_TOOL;
    }

    @Override
    protected ObjectNode denial(String reason) {
        return Json.mapper().createObjectNode().put("decision", "deny").put("reason", reason);
    }

    @Override
    protected boolean rewritesArguments() {
        return true;
    }

    /**
     * {@code hookSpecificOutput.tool_input}, given whole: Gemini CLI merges it into the arguments on one path and builds
     * the call from it alone on another. No {@code decision}. BeforeTool carries no context.
     */
    @Override
    protected ObjectNode rewrite(ObjectNode arguments, String context) {
        ObjectNode answer = Json.mapper().createObjectNode();
        ObjectNode specific = answer.putObject("hookSpecificOutput");
        specific.put("hookEventName", "BeforeTool");
        specific.set("tool_input", arguments);
        return answer;
    }

    @Override
    protected ObjectNode context(EventKind event, String text) {
        return ClaudeStyle.context(event == EventKind.POST_TOOL ? "AfterTool" : "SessionStart", text);
    }

    @Override
    protected EventNames eventNames() {
        return NAMES;
    }
}
