package dev.baton.agent;

import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.agent.codex.CodexDialect;
import dev.baton.agent.copilot.CopilotDialect;
import dev.baton.agent.copilot.CopilotPascalDialect;
import dev.baton.agent.gemini.GeminiDialect;
import dev.baton.agent.opencode.OpenCodeDialect;
import dev.baton.hook.Dialects;
import java.util.List;

/**
 * The one place the sidecar lists its agents: each agent's package holds its dialects, registered here once. The
 * order does not matter; each dialect carries its own place in detection.
 */
public final class AgentDialects {

    public static final Dialects ALL = new Dialects(List.of(
            ClaudeCodeDialect.INSTANCE,
            CopilotDialect.INSTANCE, CopilotPascalDialect.INSTANCE,
            CodexDialect.INSTANCE,
            GeminiDialect.INSTANCE,
            OpenCodeDialect.INSTANCE));

    private AgentDialects() {
    }
}
