package dev.baton.installer;

import static dev.baton.installer.TestMachine.resource;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DryRunTest {

    @TempDir
    Path temp;

    @Test
    void dryRunInstallPrintsEveryFileItWouldChangeAndWritesNothing() throws Exception {
        TestMachine machine = new TestMachine(temp);
        write(machine.userSettings(), resource("claude-settings.json"));
        Map<Path, String> before = machine.allFiles();

        machine.installer().install(machine.target(Scope.USER), true, true);

        assertThat(machine.allFiles()).isEqualTo(before);
        assertThat(machine.out())
                .contains("Dry run, nothing is written.")
                .containsPattern("would be updated +" + machine.userSettings()
                        + "  \\(\\+ PreToolUse hook, \\+ PostToolUse hook, \\+ PostToolUseFailure hook, .*\\+ permission mcp__baton__\\*\\)")
                .containsPattern("would be created +" + machine.home.resolve(".codex/hooks.json"))
                .containsPattern("would be created +" + machine.home.resolve(".codex/config.toml") + "  \\(~ trust for")
                .containsPattern("would be created +" + machine.home.resolve(".gemini/settings.json"))
                .containsPattern("would be created +" + machine.home.resolve(".copilot/hooks/baton.json"))
                .containsPattern("would be created +" + machine.home.resolve(".claude.json") + "  \\(\\+ MCP server baton\\)")
                .containsPattern("would be created +" + machine.layout().hookScript());
    }

    @Test
    void dryRunUninstallWritesNothing() throws Exception {
        TestMachine machine = new TestMachine(temp);
        write(machine.userSettings(), resource("claude-settings.json"));
        machine.install(Scope.USER);
        Map<Path, String> before = machine.allFiles();

        machine.uninstaller().uninstall(machine.target(Scope.USER), true, true);

        assertThat(machine.allFiles()).isEqualTo(before);
        assertThat(machine.out()).containsPattern("would be updated +" + machine.userSettings())
                .containsPattern("would be deleted +" + machine.home.resolve(".copilot/hooks/baton.json"))
                .containsPattern("would delete +" + machine.layout().launcher());
    }
}
