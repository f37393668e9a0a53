package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every event name the installer registers (the hook contract), in any case, means what the contract says. */
class EventNamesTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "SessionStart, SESSION_START", "sessionStart, SESSION_START",
            "PreToolUse, PRE_TOOL", "preToolUse, PRE_TOOL", "BeforeTool, PRE_TOOL",
            "PostToolUse, POST_TOOL", "postToolUse, POST_TOOL", "AfterTool, POST_TOOL",
            "PostToolUseFailure, TOOL_FAILED", "PermissionDenied, TOOL_FAILED", "postToolUseFailure, TOOL_FAILED",
            "errorOccurred, TOOL_FAILED",
            "Stop, STOP", "agentStop, STOP", "AfterAgent, STOP",
            "SubagentStop, SUBAGENT_STOP", "subagentStop, SUBAGENT_STOP",
            "SessionEnd, SESSION_END", "sessionEnd, SESSION_END",
            "UserPromptSubmit, OTHER", "BeforeAgent, OTHER"})
    void everyContractNameInAnyCaseMapsToItsMeaning(String name, EventKind kind) {
        assertThat(EventKind.fromName(name)).isEqualTo(kind);
        assertThat(EventKind.fromName(name.toUpperCase(Locale.ROOT))).isEqualTo(kind);
    }
}
