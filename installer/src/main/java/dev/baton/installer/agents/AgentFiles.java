package dev.baton.installer.agents;

import dev.baton.installer.layout.Agent;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where each agent keeps the hooks Baton adds, per scope; empty where the agent has no such scope. OpenCode's is
 * Baton's plug-in file ({@link OpenCodePlugin}).
 */
public final class AgentFiles {

    private AgentFiles() {
    }

    public static Optional<Path> hookFile(InstallLayout layout, Agent agent, Scope scope, Path project) {
        return switch (agent) {
            case CLAUDE -> Optional.of(ClaudeSettings.file(layout, scope, project));
            case COPILOT -> scope == Scope.LOCAL ? Optional.empty() : Optional.of(CopilotHooks.file(layout, scope, project));
            case CODEX -> switch (scope) {
                case USER -> Optional.of(layout.codexDir().resolve("hooks.json"));
                case PROJECT -> Optional.of(project.resolve(".codex/hooks.json"));
                case LOCAL -> Optional.empty();
            };
            case GEMINI -> switch (scope) {
                case USER -> Optional.of(layout.geminiDir().resolve("settings.json"));
                case PROJECT -> Optional.of(project.resolve(".gemini/settings.json"));
                case LOCAL -> Optional.empty();
            };
            case OPENCODE -> OpenCodePlugin.file(layout, scope, project); // a plug-in, not a JSON file of hooks
        };
    }

    /** Codex's user configuration, where it records which hooks the user trusts. */
    public static Path codexConfig(InstallLayout layout) {
        return layout.codexDir().resolve("config.toml");
    }
}
