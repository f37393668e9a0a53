package dev.baton.agent.copilot;

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
 * GitHub Copilot CLI's native hooks: camelCase payloads with no event name (the script passes the config key
 * it was registered under), {@code toolArgs} usually a JSON string and sometimes an object, paths often
 * relative to {@code cwd}, and {@code sessionId} sometimes missing. Answers are flat
 * {@code {"permissionDecision":"deny",…}} objects.
 */
public final class CopilotDialect extends Dialect {

    /** The kind of Copilot CLI's sessions, as the API and the database name it. */
    public static final AgentKind KIND = new AgentKind("copilot-cli");

    /** Copilot CLI's config keys (camelCase), and the PascalCase names it sends to a project's Claude Code hooks. */
    private static final EventNames NAMES = new EventNames(Map.ofEntries(
            Map.entry("sessionStart", EventKind.SESSION_START),
            Map.entry("preToolUse", EventKind.PRE_TOOL),
            Map.entry("postToolUse", EventKind.POST_TOOL),
            Map.entry("postToolUseFailure", EventKind.TOOL_FAILED),
            Map.entry("permissionDenied", EventKind.TOOL_FAILED),
            Map.entry("errorOccurred", EventKind.TOOL_FAILED),
            Map.entry("stop", EventKind.STOP),
            Map.entry("agentStop", EventKind.STOP),
            Map.entry("subagentStop", EventKind.SUBAGENT_STOP),
            Map.entry("sessionEnd", EventKind.SESSION_END)));

    public static final CopilotDialect INSTANCE = new CopilotDialect();

    private static final Set<String> SINGLE_FILE_TOOLS = Set.of("edit", "create", "write", "str_replace_editor");
    /** toolResult.resultType values of a call that did not do its work. */
    private static final Set<String> FAILED_RESULTS = Set.of("failure", "rejected", "denied");

    private CopilotDialect() {
        super(KIND, "copilot", 20);
    }

    /** camelCase fields are Copilot's own; so is a call of Copilot's hook command that names no event in its payload. */
    @Override
    protected boolean recognises(String agentArg, HookPayload payload) {
        boolean camelCase = payload.has("toolName") || payload.has("toolArgs") || payload.has("sessionId");
        return camelCase || "copilot".equals(agentArg) && !payload.has("hook_event_name");
    }

    @Override
    protected HookCall read(HookPayload payload, String eventArg) {
        if (eventArg == null || eventArg.isBlank()) {
            throw BatonException.invalid("Copilot CLI payloads carry no event name; pass the hook's config key"
                    + " (e.g. event=preToolUse), as `baton-hook copilot preToolUse` does");
        }
        EventKind event = NAMES.kindOf(eventArg);
        String tool = payload.text("toolName");
        String result = resultType(payload);
        if (event == EventKind.POST_TOOL && result != null && FAILED_RESULTS.contains(result)) {
            event = EventKind.TOOL_FAILED; // older CLIs report a failed or refused call as postToolUse
        }
        String subagent = firstText(payload, "agentId", "agent_id");
        if (event == EventKind.SUBAGENT_STOP && subagent == null) {
            // Copilot CLI's subagents act under their parent's sessionId: their edits are already the parent's.
            event = EventKind.OTHER;
        }
        if (event == EventKind.TOOL_FAILED && tool == null) {
            event = EventKind.OTHER; // errorOccurred for a model or network error ends no edit
        }
        List<String> files = tool == null ? null : filesWritten(tool, payload.node("toolArgs"));
        return new HookCall(agent(), event, payload.text("sessionId"), event == EventKind.SUBAGENT_STOP ? subagent : null,
                payload.text("cwd"), tool, files != null, files == null ? List.of() : files);
    }

    private static String resultType(HookPayload payload) {
        return payload.object("toolResult").map(result -> result.path("resultType").asText(null)).orElse(null);
    }

    private static String firstText(HookPayload payload, String... fields) {
        for (String field : fields) {
            String value = payload.text(field);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /** @param toolArgs a JSON string (double-encoded), an object, or for apply_patch the raw patch text */
    @Override
    protected List<String> filesWritten(String tool, JsonNode toolArgs) {
        String name = tool.toLowerCase(Locale.ROOT);
        JsonNode args = toolArgs;
        String rawText = null;
        if (toolArgs != null && toolArgs.isTextual()) {
            rawText = toolArgs.textValue();
            args = HookPayload.embedded(rawText).orElse(null);
        }
        if (name.equals("apply_patch")) {
            String patch = rawText != null && PatchPaths.looksLikePatch(rawText) ? rawText : patchField(args);
            return patch == null ? List.of() : PatchPaths.of(patch);
        }
        if (!SINGLE_FILE_TOOLS.contains(name)) {
            return null;
        }
        if (name.equals("str_replace_editor") && args != null && "view".equals(args.path("command").asText())) {
            return null; // str_replace_editor's view command only reads
        }
        return ClaudeStyle.requireFile(tool, args);
    }

    private static String patchField(JsonNode args) {
        if (args == null || !args.isObject()) {
            return null;
        }
        for (String key : List.of("input", "patch", "command")) {
            JsonNode value = args.get(key);
            if (value != null && value.isTextual() && PatchPaths.looksLikePatch(value.textValue())) {
                return value.textValue();
            }
        }
        return null;
    }

    @Override
    protected ObjectNode denial(String reason) {
        return Json.mapper().createObjectNode()
                .put("permissionDecision", "deny")
                .put("permissionDecisionReason", reason);
    }

    @Override
    protected ObjectNode context(EventKind event, String text) {
        return Json.mapper().createObjectNode().put("additionalContext", text);
    }

    @Override
    protected boolean rewritesArguments() {
        return true;
    }

    /** {@code modifiedArgs} replaces the tool's arguments whole; no {@code permissionDecision}. */
    @Override
    protected ObjectNode rewrite(ObjectNode arguments, String context) {
        ObjectNode answer = Json.mapper().createObjectNode();
        answer.set("modifiedArgs", arguments);
        if (context != null && !context.isBlank()) {
            answer.put("additionalContext", context);
        }
        return answer;
    }

    @Override
    protected EventNames eventNames() {
        return NAMES;
    }
}
