package dev.baton.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import dev.baton.session.AgentKind;
import dev.baton.state.BatonException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The snake_case payload shape Claude Code introduced and Codex CLI, Gemini CLI and Copilot CLI's
 * Claude-compatible mode follow ({@code session_id}, {@code hook_event_name}, {@code tool_input}), and the
 * {@code hookSpecificOutput} answer they understand.
 */
public final class ClaudeStyle {

    private ClaudeStyle() {
    }

    /**
     * @param filesWritten the files a tool writes, given its name and tool_input; null when it writes none
     */
    public static HookCall read(HookPayload payload, String eventArg, AgentKind agent, EventNames names,
                         BiFunction<String, JsonNode, List<String>> filesWritten) {
        String eventName = payload.has("hook_event_name") ? payload.text("hook_event_name") : eventArg;
        EventKind event = names.kindOf(eventName);
        String subagent = payload.text("agent_id");
        if (event == EventKind.SUBAGENT_STOP && subagent == null) {
            event = EventKind.OTHER; // a subagent's end without its id says nothing about the main conversation
        }
        String sessionId = payload.text("session_id");
        if (sessionId == null) {
            throw BatonException.invalid("the hook payload has no session_id; Baton needs it to know whose edit this is");
        }
        String tool = payload.text("tool_name");
        if (event == EventKind.TOOL_FAILED && tool == null) {
            event = EventKind.OTHER; // an error that names no tool ends no edit
        }
        List<String> files = tool == null ? null : filesWritten.apply(tool, payload.node("tool_input"));
        return new HookCall(agent, event, sessionId, subagent, payload.text("cwd"), tool, files != null,
                files == null ? List.of() : files);
    }

    /** Claude Code's edit tools, which Codex CLI and Copilot CLI's Claude-compatible mode also report. */
    private static final Set<String> EDIT_TOOLS = Set.of("edit", "write", "multiedit", "notebookedit");

    /** The file a call of one of Claude Code's edit tools writes; null for any other tool. */
    public static List<String> editToolFiles(String tool, JsonNode input) {
        return EDIT_TOOLS.contains(tool.toLowerCase(Locale.ROOT)) ? requireFile(tool, input) : null;
    }

    /** The single file an edit tool names; a payload without one cannot be locked and is refused. */
    public static List<String> requireFile(String tool, JsonNode input) {
        List<String> files = EditedFiles.in(input);
        if (files.isEmpty()) {
            throw BatonException.invalid("the " + tool + " call names no file (expected file_path, notebook_path"
                    + " or path in its arguments); Baton cannot tell what it would write");
        }
        return files;
    }

    public static String eventName(EventKind event) {
        return switch (event) {
            case SESSION_START -> "SessionStart";
            case PRE_TOOL -> "PreToolUse";
            case POST_TOOL -> "PostToolUse";
            case TOOL_FAILED -> "PostToolUseFailure";
            case STOP -> "Stop";
            case SUBAGENT_STOP -> "SubagentStop";
            case SESSION_END -> "SessionEnd";
            case OTHER -> "Other";
        };
    }

    /** {@code {"hookSpecificOutput":{"hookEventName":E,"permissionDecision":"deny","permissionDecisionReason":R}}} */
    public static ObjectNode denial(String reason) {
        ObjectNode root = Json.mapper().createObjectNode();
        root.putObject("hookSpecificOutput")
                .put("hookEventName", "PreToolUse")
                .put("permissionDecision", "deny")
                .put("permissionDecisionReason", reason);
        return root;
    }

    /** {@code {"hookSpecificOutput":{"hookEventName":E,"additionalContext":T}}} */
    public static ObjectNode context(String hookEventName, String text) {
        ObjectNode root = Json.mapper().createObjectNode();
        root.putObject("hookSpecificOutput")
                .put("hookEventName", hookEventName)
                .put("additionalContext", text);
        return root;
    }

    /** One line of JSON for stdout. */
    public static String line(ObjectNode json) {
        try {
            return Json.mapper().writeValueAsString(json) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a hook reply could not be written as JSON", e);
        }
    }

    public static boolean carriesContext(EventKind event) {
        return event == EventKind.SESSION_START || event == EventKind.PRE_TOOL || event == EventKind.POST_TOOL;
    }
}
