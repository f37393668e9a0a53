package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.agent.codex.CodexDialect;
import dev.baton.agent.copilot.CopilotDialect;
import dev.baton.agent.copilot.CopilotPascalDialect;
import dev.baton.agent.gemini.GeminiDialect;
import dev.baton.agent.opencode.OpenCodeDialect;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every event name the installer registers (the hook contract), in any case, means what the contract says. */
class EventNamesTest {

    private static final Map<String, Dialect> DIALECTS = Map.of(
            "claude", ClaudeCodeDialect.INSTANCE, "codex", CodexDialect.INSTANCE,
            "copilot", CopilotDialect.INSTANCE, "copilot-pascal", CopilotPascalDialect.INSTANCE,
            "gemini", GeminiDialect.INSTANCE, "opencode", OpenCodeDialect.INSTANCE);

    @ParameterizedTest(name = "{0}: {1} is {2}")
    @CsvSource({
            "claude, SessionStart, SESSION_START", "claude, PreToolUse, PRE_TOOL", "claude, PostToolUse, POST_TOOL",
            "claude, PostToolUseFailure, TOOL_FAILED", "claude, PermissionDenied, TOOL_FAILED", "claude, Stop, STOP",
            "claude, SubagentStop, SUBAGENT_STOP", "claude, SessionEnd, SESSION_END", "claude, UserPromptSubmit, OTHER",
            "codex, SessionStart, SESSION_START", "codex, PreToolUse, PRE_TOOL", "codex, PostToolUse, POST_TOOL",
            "codex, Stop, STOP", "codex, SessionEnd, SESSION_END",
            "copilot, sessionStart, SESSION_START", "copilot, preToolUse, PRE_TOOL", "copilot, postToolUse, POST_TOOL",
            "copilot, postToolUseFailure, TOOL_FAILED", "copilot, errorOccurred, TOOL_FAILED", "copilot, agentStop, STOP",
            "copilot, subagentStop, SUBAGENT_STOP", "copilot, sessionEnd, SESSION_END",
            "copilot-pascal, PreToolUse, PRE_TOOL", "copilot-pascal, PostToolUse, POST_TOOL",
            "copilot-pascal, Stop, STOP", "copilot-pascal, SessionEnd, SESSION_END",
            "gemini, SessionStart, SESSION_START", "gemini, BeforeTool, PRE_TOOL", "gemini, AfterTool, POST_TOOL",
            "gemini, AfterAgent, STOP", "gemini, SessionEnd, SESSION_END", "gemini, BeforeAgent, OTHER",
            "opencode, tool.execute.before, PRE_TOOL", "opencode, tool.execute.after, POST_TOOL",
            "opencode, session.idle, STOP", "opencode, session.deleted, SESSION_END", "opencode, session.created, OTHER"})
    void everyContractNameInAnyCaseMapsToItsMeaning(String agent, String name, EventKind kind) {
        EventNames names = DIALECTS.get(agent).eventNames();
        assertThat(names.kindOf(name)).isEqualTo(kind);
        assertThat(names.kindOf(name.toUpperCase(Locale.ROOT))).isEqualTo(kind);
    }
}
