package dev.baton.hook;

import dev.baton.session.AgentKind;
import java.util.Set;

/**
 * One agent's hook language: how its payloads name sessions, events, tools and files, and how it wants to be
 * answered. The script passes the agent it was installed for, but the payload decides: Copilot CLI also runs
 * the hooks of {@code .claude/settings.json}, sending its own PascalCase payloads to Claude's hook command.
 */
sealed interface Dialect permits ClaudeCodeDialect, CopilotDialect, CopilotPascalDialect, CodexDialect, GeminiDialect {

    /** The agents the hook script may name, as in {@code baton-hook AGENT EVENT}. */
    Set<String> AGENTS = Set.of("claude", "copilot", "codex", "gemini");

    Set<String> GEMINI_EVENTS = Set.of("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel",
            "AfterModel", "BeforeToolSelection", "PreCompress", "Notification");

    AgentKind agent();

    /** @param eventArg the event name the hook was registered under, as the script passes it (may be null) */
    HookCall read(HookPayload payload, String eventArg);

    /** Whether this agent shows extra context to the model for this event. */
    boolean carriesContext(EventKind event);

    HookOutput render(HookReply reply, EventKind event);

    static Dialect detect(String agentArg, HookPayload payload) {
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
