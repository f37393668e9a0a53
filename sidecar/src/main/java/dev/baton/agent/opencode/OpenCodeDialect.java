package dev.baton.agent.opencode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.hook.ClaudeStyle;
import dev.baton.hook.Dialect;
import dev.baton.hook.EventKind;
import dev.baton.hook.EventNames;
import dev.baton.hook.HookCall;
import dev.baton.hook.HookPayload;
import dev.baton.hook.PatchPaths;
import dev.baton.http.Json;
import dev.baton.session.AgentKind;
import dev.baton.state.BatonException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * OpenCode runs no hook process: Baton's plug-in, inside the OpenCode process, forwards each edit and shell tool call
 * ({@code tool.execute.before}, {@code tool.execute.after}) and the end of a turn (the {@code session.idle} event)
 * under OpenCode's own names, in Claude's field names ({@code session_id} is OpenCode's sessionID, {@code tool_input}
 * the tool's arguments, {@code tool_use_id} its callID). The tools as OpenCode 1.18 names them: {@code edit} and
 * {@code write} name a {@code filePath}, {@code apply_patch} carries a {@code patchText}, {@code bash} a
 * {@code command}.
 *
 * <p>The answer is one JSON object the plug-in acts on: {@code {"deny":R}} is thrown as the tool's error, which the
 * model reads; {@code {"args":A}} becomes the tool's arguments (a shell command run through Baton's wrapper);
 * {@code {"context":T}} is added to the tool's output once it ran, which is where OpenCode lets a plug-in tell the
 * model something.
 */
public final class OpenCodeDialect extends Dialect {

    /** The kind of OpenCode's sessions, as the API and the database name it. */
    public static final AgentKind KIND = new AgentKind("opencode");

    /** The agent the plug-in names, as in {@code POST /v1/hooks?agent=opencode}. */
    public static final String AGENT = "opencode";

    /** OpenCode's plug-in hooks and bus events, as Baton reads them. */
    private static final EventNames NAMES = new EventNames(Map.ofEntries(
            Map.entry("tool.execute.before", EventKind.PRE_TOOL),
            Map.entry("tool.execute.after", EventKind.POST_TOOL),
            Map.entry("session.idle", EventKind.STOP),
            Map.entry("session.deleted", EventKind.SESSION_END)));

    public static final OpenCodeDialect INSTANCE = new OpenCodeDialect();

    private static final Set<String> SINGLE_FILE_TOOLS = Set.of("edit", "write", "multiedit");
    private static final Set<String> PATCH_TOOLS = Set.of("apply_patch", "patch");

    private OpenCodeDialect() {
        super(KIND, AGENT, 10);
    }

    @Override
    protected boolean recognises(String agentArg, HookPayload payload) {
        return AGENT.equals(agentArg);
    }

    /** The plug-in runs inside OpenCode: the process behind the connection is the agent. */
    @Override
    protected boolean runsInAgent() {
        return true;
    }

    @Override
    protected HookCall read(HookPayload payload, String eventArg) {
        EventKind event = eventOf(payload.has("hook_event_name") ? payload.text("hook_event_name") : eventArg);
        String sessionId = payload.text("session_id");
        if (sessionId == null) {
            throw BatonException.invalid("the OpenCode plug-in's payload has no session_id (OpenCode's sessionID);"
                    + " Baton needs it to know whose call this is");
        }
        String tool = payload.text("tool_name");
        List<String> files = tool == null ? null : filesWritten(tool, payload.node("tool_input"));
        return new HookCall(agent(), event, sessionId, null, payload.text("cwd"), tool, files != null,
                files == null ? List.of() : files);
    }

    static EventKind eventOf(String name) {
        return NAMES.kindOf(name);
    }

    @Override
    protected List<String> filesWritten(String tool, JsonNode input) {
        String name = tool.toLowerCase(Locale.ROOT);
        if (PATCH_TOOLS.contains(name)) {
            JsonNode patch = input == null ? null : input.get("patchText");
            if (patch == null || !patch.isTextual()) {
                throw BatonException.invalid("the " + tool + " call has no patchText; Baton cannot tell what it would write");
            }
            return PatchPaths.of(patch.textValue());
        }
        return SINGLE_FILE_TOOLS.contains(name) ? ClaudeStyle.requireFile(tool, input) : null;
    }

    /** Only after the tool ran can the plug-in add to what the model reads. */
    @Override
    protected boolean carriesContext(EventKind event) {
        return event == EventKind.POST_TOOL;
    }

    @Override
    protected ObjectNode denial(String reason) {
        return Json.mapper().createObjectNode().put("deny", reason);
    }

    @Override
    protected ObjectNode context(EventKind event, String text) {
        return Json.mapper().createObjectNode().put("context", text);
    }

    /** The plug-in sets the arguments OpenCode then runs the tool with (checked with OpenCode 1.18.33). */
    @Override
    protected boolean rewritesArguments() {
        return true;
    }

    /** {@code {"args":A}}, with the notes about the command as {@code context}, which the plug-in tells after it ran. */
    @Override
    protected ObjectNode rewrite(ObjectNode arguments, String context) {
        ObjectNode answer = Json.mapper().createObjectNode();
        answer.set("args", arguments);
        if (context != null && !context.isBlank()) {
            answer.put("context", context);
        }
        return answer;
    }

    @Override
    protected EventNames eventNames() {
        return NAMES;
    }
}
