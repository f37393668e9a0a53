package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.session.AgentKind;
import java.util.List;
import java.util.Set;

/**
 * One agent's hook language: how its payloads name sessions, events, tools and files, and how it wants to be
 * answered. The script passes the agent it was installed for, but the payload decides: Copilot CLI also runs
 * the hooks of {@code .claude/settings.json}, sending its own PascalCase payloads to Claude's hook command.
 * Most agents follow the shape Claude Code introduced ({@link ClaudeStyle}); a dialect overrides only where its
 * agent departs from it.
 */
abstract sealed class Dialect permits ClaudeCodeDialect, CopilotDialect, CopilotPascalDialect, CodexDialect, GeminiDialect,
        OpenCodeDialect {

    /** The agents the hook script may name, as in {@code baton-hook AGENT EVENT}. */
    static final Set<String> AGENTS = Set.of("claude", "copilot", "codex", "gemini", OpenCodeDialect.AGENT);

    static final Set<String> GEMINI_EVENTS = Set.of("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
            "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress", "Notification");

    private final AgentKind agent;

    Dialect(AgentKind agent) {
        this.agent = agent;
    }

    final AgentKind agent() {
        return agent;
    }

    /** @param eventArg the event name the hook was registered under, as the script passes it (may be null) */
    HookCall read(HookPayload payload, String eventArg) {
        return ClaudeStyle.read(payload, eventArg, agent, this::filesWritten);
    }

    /** The files a call of {@code tool} writes, given its arguments; null when the tool writes none. */
    abstract List<String> filesWritten(String tool, JsonNode input);

    /** Whether this agent shows extra context to the model for this event. */
    boolean carriesContext(EventKind event) {
        return ClaudeStyle.carriesContext(event);
    }

    /** The answer that refuses a tool call before it runs. */
    ObjectNode denial(String reason) {
        return ClaudeStyle.denial(reason);
    }

    /** The answer that shows {@code text} to the model at an event that carries context. */
    ObjectNode context(EventKind event, String text) {
        return ClaudeStyle.context(ClaudeStyle.eventName(event), text);
    }

    /**
     * Whether the agent runs a tool call with the arguments its PreToolUse hook answers, without an explicit allow
     * (checked with each real CLI): Copilot CLI's {@code modifiedArgs} and Gemini CLI's {@code tool_input} are applied
     * as they are; Codex CLI applies {@code updatedInput} only beside {@code permissionDecision: allow}, which would
     * skip the user's own prompt, and Claude Code runs its shell commands through Baton's prefix instead.
     */
    boolean rewritesArguments() {
        return false;
    }

    /** The answer that has a tool call run with {@code arguments}, where {@link #rewritesArguments()}. */
    ObjectNode rewrite(ObjectNode arguments, String context) {
        throw new UnsupportedOperationException(agent + " does not take rewritten arguments from a hook");
    }

    /** Every agent reads its answer as one line of JSON on stdout with exit 0, and nothing when there is none. */
    final HookOutput render(HookReply reply, EventKind event) {
        if (reply instanceof HookReply.Deny deny && event == EventKind.PRE_TOOL) {
            return HookOutput.stdout(ClaudeStyle.line(denial(deny.reason())));
        }
        if (reply instanceof HookReply.Rewrite rewrite) {
            if (event == EventKind.PRE_TOOL && rewritesArguments()) {
                return HookOutput.stdout(ClaudeStyle.line(rewrite(rewrite.arguments(), rewrite.context())));
            }
            reply = HookReply.context(rewrite.context());
        }
        if (reply instanceof HookReply.Context context && carriesContext(event)) {
            return HookOutput.stdout(ClaudeStyle.line(context(event, context.text())));
        }
        return HookOutput.NOTHING;
    }

    static Dialect detect(String agentArg, HookPayload payload) {
        if (OpenCodeDialect.AGENT.equals(agentArg)) {
            return OpenCodeDialect.INSTANCE;
        }
        boolean camelCase = payload.has("toolName") || payload.has("toolArgs") || payload.has("sessionId");
        if (camelCase || ("copilot".equals(agentArg) && !payload.has("hook_event_name"))) {
            return CopilotDialect.INSTANCE;
        }
        String event = payload.text("hook_event_name");
        if ("gemini".equals(agentArg) || (event != null && GEMINI_EVENTS.contains(event))) {
            return GeminiDialect.INSTANCE;
        }
        if ("codex".equals(agentArg) || payload.has("turn_id")) {
            return CodexDialect.INSTANCE;
        }
        // Copilot's Claude-compatible payloads carry an ISO timestamp and no transcript_path.
        if ("copilot".equals(agentArg) || (!payload.has("transcript_path") && payload.has("timestamp"))) {
            return CopilotPascalDialect.INSTANCE;
        }
        return ClaudeCodeDialect.INSTANCE;
    }
}
