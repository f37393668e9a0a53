package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
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

        machine.install(Scope.USER, Agent.GEMINI);

        ObjectNode tree = JsonText.parseObject(read(settings));
        List<String> events = new ArrayList<>();
        tree.get("hooks").fieldNames().forEachRemaining(events::add);
        assertThat(events).containsExactly("BeforeTool", "AfterTool", "AfterAgent", "SessionStart", "SessionEnd");
        assertThat(tree.at("/hooks/BeforeTool/0/matcher").asText()).isEqualTo("write_file|replace|run_shell_command");
        assertThat(tree.at("/hooks/BeforeTool/0/hooks/0/timeout").asInt()).isEqualTo(30_000);
        assertThat(tree.at("/hooks/AfterAgent/0/hooks/0/command").asText()).isEqualTo(machine.hookScript() + " gemini AfterAgent");
        assertThat(tree.at("/mcpServers/baton")).isEqualTo(JsonText.parseObject("""
                {"command": "%s", "args": ["gemini", "Mcp"]}""".formatted(machine.hookScript())));
        assertThat(tree.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");
        assertThat(read(settings)).doesNotContain("Bearer").doesNotContain("7455");
        assertThat(machine.out()).contains("GEMINI_CLI_TRUST_WORKSPACE=true");

        machine.uninstall(Scope.USER, Agent.GEMINI);

        assertThat(read(settings)).isEqualTo(original);
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
