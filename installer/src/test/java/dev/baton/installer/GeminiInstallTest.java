package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.program.ProgramSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeminiInstallTest extends MachineFixture {

    @Test
    void installAddsHooksWithMillisecondTimeoutsAndTheMcpServerToGeminiSettings() throws Exception {
        String original = "{\n  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"gemini-api-key\"\n    }\n  }\n}\n";
        Path settings = write(machine.home.resolve(".gemini/settings.json"), original);
        machine.env.put("BATON_PORT", "7455");

        machine.install(Scope.USER, Agents.GEMINI);

        ObjectNode tree = JsonText.parseObject(read(settings));
        List<String> events = new ArrayList<>();
        tree.get("hooks").fieldNames().forEachRemaining(events::add);
        assertThat(events).containsExactly("BeforeTool", "AfterTool", "AfterAgent", "SessionStart", "SessionEnd");
        assertThat(tree.at("/hooks/BeforeTool/0/matcher").asText()).isEqualTo("write_file|replace|run_shell_command");
        assertThat(tree.at("/hooks/BeforeTool/0/hooks/0/timeout").asInt()).isEqualTo(30_000);
        assertThat(tree.at("/hooks/AfterAgent/0/hooks/0/command").asText()).isEqualTo(machine.hookScript() + " gemini AfterAgent");
        assertThat(tree.at("/mcpServers/baton")).isEqualTo(JsonText.parseObject("""
                {"command": "%s", "args": []}""".formatted(machine.layout().mcpScript())));
        assertThat(tree.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");
        assertThat(read(settings)).doesNotContain("Bearer").doesNotContain("7455");
        assertThat(machine.out()).contains("GEMINI_CLI_TRUST_WORKSPACE=true");

        machine.uninstall(Scope.USER, Agents.GEMINI);

        assertThat(read(settings)).isEqualTo(original);
    }

    /** A settings file as Gemini CLI accepts and keeps it: comments of both kinds, a setting commented out. */
    private static final String COMMENTED = """
            // Gemini CLI settings, shared between my machines
            {
              /* the model pinned for every session */
              "model": {
                "name": "gemini-2.5-pro" // not the preview
              },
              "ui": {
                // "theme": "GitHub",
              }
            }
            """;

    @Test
    void aGeminiSettingsFileWithCommentsIsEditedInPlaceAndGetsItsBytesBackAtUninstall() throws Exception {
        Path settings = write(machine.home.resolve(".gemini/settings.json"), COMMENTED);

        machine.install(Scope.USER, Agents.GEMINI);

        String installed = read(settings);
        ObjectNode tree = JsonText.parseObject(installed, JsonSyntax.COMMENTS);
        assertThat(tree.at("/hooks/BeforeTool/0/hooks/0/command").asText()).isEqualTo(machine.hookScript() + " gemini BeforeTool");
        assertThat(tree.at("/mcpServers/baton/command").asText()).isEqualTo(machine.layout().mcpScript().toString());
        assertThat(tree.at("/model/name").asText()).isEqualTo("gemini-2.5-pro");
        assertThat(installed).startsWith("// Gemini CLI settings, shared between my machines\n{\n"
                + "  /* the model pinned for every session */\n  \"model\": {\n    \"name\": \"gemini-2.5-pro\" // not the preview\n"
                + "  },\n  \"ui\": {\n    // \"theme\": \"GitHub\",\n  },\n  \"hooks\": {\n");
        assertThat(read(settings.resolveSibling("settings.json.baton-backup"))).isEqualTo(COMMENTED);

        machine.uninstall(Scope.USER, Agents.GEMINI);

        assertThat(read(settings)).isEqualTo(COMMENTED);
        assertThat(settings.resolveSibling("settings.json.baton-backup")).doesNotExist();
    }

    @Test
    void uninstallFromACommentedGeminiFileTheUserChangedSinceTakesOutOnlyBatonsEntries() throws Exception {
        Path settings = write(machine.home.resolve(".gemini/settings.json"), COMMENTED);
        machine.install(Scope.USER, Agents.GEMINI);
        // Gemini keeps comments when it saves a setting itself; the user (or Gemini) changed one since install.
        write(settings, read(settings).replace("\"gemini-2.5-pro\"", "\"gemini-2.5-flash\""));

        machine.uninstall(Scope.USER, Agents.GEMINI);

        assertThat(read(settings)).isEqualTo(COMMENTED.replace("\"gemini-2.5-pro\"", "\"gemini-2.5-flash\""));
    }

    @Test
    void aTrailingCommaThatGeminiRefusesIsRefusedWithTheReasonAndNothingChanges() throws Exception {
        write(machine.home.resolve(".gemini/settings.json"), "{\n  \"model\": {\"name\": \"gemini-2.5-pro\"},\n}\n");
        write(machine.userSettings(), "{}\n");
        var before = machine.allFiles();

        assertThatThrownBy(() -> machine.install(Scope.USER, Agents.GEMINI, Agents.CLAUDE))
                .isInstanceOf(InstallerException.class)
                .hasMessage("Refusing to edit " + machine.home.resolve(".gemini/settings.json") + ": it has a trailing"
                        + " comma at line 3, column 1, and Gemini CLI reads this file as JSON with // and /* */ comments"
                        + " but without trailing commas, so Gemini CLI does not load it as it is either. Take its trailing"
                        + " commas out, then run the command again; nothing was changed.");
        assertThat(machine.allFiles()).isEqualTo(before);
    }

    @Test
    void byDefaultInstallWiresEveryAgentFoundOnTheMachineAndNoOther() throws Exception {
        Files.createDirectories(machine.home.resolve(".gemini"));
        Path bin = Files.createDirectories(machine.root.resolve("bin"));
        Path codex = Files.writeString(bin.resolve("codex"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(codex, PosixFilePermissions.fromString("rwxr-xr-x"));
        machine.env.put("PATH", bin + ":/usr/bin:/bin");
        java.io.StringWriter out = new java.io.StringWriter();

        int exit = new picocli.CommandLine(new InstallCommand(machine.env, TestMachine.SCRIPT,
                new ProgramSource(machine.jar, machine.jar.toString()))).setOut(new java.io.PrintWriter(out)).execute();

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("Installing Baton for Codex CLI and Gemini CLI at user scope.");
        assertThat(machine.home.resolve(".codex/hooks.json")).exists();
        assertThat(machine.home.resolve(".gemini/settings.json")).exists();
        assertThat(machine.home.resolve(".claude")).doesNotExist();
        assertThat(machine.home.resolve(".copilot")).doesNotExist();
    }
}
