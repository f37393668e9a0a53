package dev.baton.installer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.agents.HookedAgent;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where each agent keeps its configuration: under the home, unless the agent's own variable moves it. */
class AgentConfigDirectoryTest {

    private static final Path HOME = Path.of("/home/dev");
    private static final Path PROJECT = Path.of("/home/dev/shop");

    private static InstallLayout layout(String... variables) {
        Map<String, String> env = new HashMap<>(Map.of("HOME", HOME.toString()));
        for (int i = 0; i < variables.length; i += 2) {
            env.put(variables[i], variables[i + 1]);
        }
        return InstallLayout.fromEnvironment(env);
    }

    @Test
    void eachAgentKeepsItsConfigurationUnderTheHomeByDefault() {
        InstallLayout layout = layout();

        assertThat(Agents.CLAUDE.configDir(layout)).isEqualTo(HOME.resolve(".claude"));
        assertThat(Agents.COPILOT.configDir(layout)).isEqualTo(HOME.resolve(".copilot"));
        assertThat(Agents.CODEX.configDir(layout)).isEqualTo(HOME.resolve(".codex"));
        assertThat(Agents.GEMINI.configDir(layout)).isEqualTo(HOME.resolve(".gemini"));
        assertThat(Agents.OPENCODE.configDir(layout)).isEqualTo(HOME.resolve(".config/opencode"));
        assertThat(claudeUserMcpFile(layout)).isEqualTo(HOME.resolve(".claude.json"));
    }

    @Test
    void anAgentsOwnVariableMovesItsConfiguration() {
        InstallLayout layout = layout("CLAUDE_CONFIG_DIR", "/cfg/claude", "COPILOT_HOME", "/cfg/copilot",
                "CODEX_HOME", "/cfg/codex", "XDG_CONFIG_HOME", "/cfg/xdg");

        assertThat(Agents.CLAUDE.configDir(layout)).isEqualTo(Path.of("/cfg/claude"));
        assertThat(claudeUserMcpFile(layout)).isEqualTo(Path.of("/cfg/claude/.claude.json"));
        assertThat(Agents.COPILOT.configDir(layout)).isEqualTo(Path.of("/cfg/copilot"));
        assertThat(Agents.CODEX.configDir(layout)).isEqualTo(Path.of("/cfg/codex"));
        assertThat(Agents.OPENCODE.configDir(layout)).isEqualTo(Path.of("/cfg/xdg/opencode"));
    }

    @Test
    void aBlankVariableMovesNothing() {
        assertThat(Agents.CODEX.configDir(layout("CODEX_HOME", " "))).isEqualTo(HOME.resolve(".codex"));
    }

    private static Path claudeUserMcpFile(InstallLayout layout) {
        return ((HookedAgent) Agents.CLAUDE).mcpPlacements(layout, Scope.USER, PROJECT).get(0).file().path();
    }
}
