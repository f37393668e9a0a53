package dev.baton.installer;

import dev.baton.agent.AgentWirings;
import dev.baton.installer.agents.AgentWiring;

/** The registered agents by name, for tests that pick some. */
final class Agents {

    static final AgentWiring CLAUDE = named("claude");
    static final AgentWiring COPILOT = named("copilot");
    static final AgentWiring CODEX = named("codex");
    static final AgentWiring GEMINI = named("gemini");
    static final AgentWiring OPENCODE = named("opencode");

    private Agents() {
    }

    private static AgentWiring named(String name) {
        return AgentWirings.named(name).orElseThrow();
    }
}
