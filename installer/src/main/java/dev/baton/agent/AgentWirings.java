package dev.baton.agent;

import dev.baton.agent.claude.ClaudeCodeWiring;
import dev.baton.agent.codex.CodexWiring;
import dev.baton.agent.copilot.CopilotWiring;
import dev.baton.agent.gemini.GeminiWiring;
import dev.baton.agent.opencode.OpenCodeWiring;
import dev.baton.installer.agents.AgentWiring;
import java.util.List;
import java.util.Optional;

/**
 * The one place the installer lists its agents: each agent's package holds its wiring, registered here once. The order
 * is the order of the agents everywhere the installer names several: in its messages, its edits and the doctor's
 * checks.
 */
public final class AgentWirings {

    public static final List<AgentWiring> ALL = List.of(
            new ClaudeCodeWiring(),
            new CopilotWiring(),
            new CodexWiring(),
            new GeminiWiring(),
            new OpenCodeWiring());

    private AgentWirings() {
    }

    public static Optional<AgentWiring> named(String name) {
        return ALL.stream().filter(agent -> agent.name().equals(name)).findFirst();
    }
}
