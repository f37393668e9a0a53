package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.resource;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class McpRegistrationTest extends MachineFixture {

    static final String TOKEN = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    Path batonHome;

    @BeforeEach
    void setUp() throws IOException {
        batonHome = machine.home.resolve(".local/state/baton");
        // As a sidecar leaves it: the user's alone (Baton refuses a home others may enter).
        Files.createDirectories(batonHome);
        Files.setPosixFilePermissions(batonHome, PosixFilePermissions.fromString("rwx------"));
    }

    @Test
    void userScopeRegistersTheServerWithAHeaderHelperThatReadsTheTokenFileSoTheTokenStaysOutOfClaudeJson() throws Exception {
        machine.env.put("BATON_PORT", "48123");
        write(batonHome.resolve("endpoint"), "127.0.0.1:39999\n"); // a sidecar of the moment, not the configured port
        writeToken(batonHome, TOKEN + "\n");

        machine.install(Scope.USER, Agent.CLAUDE);

        JsonNode server = JsonText.parseObject(read(machine.home.resolve(".claude.json"))).at("/mcpServers/baton");
        assertThat(server.get("type").asText()).isEqualTo("http");
        assertThat(server.get("url").asText()).isEqualTo("http://127.0.0.1:48123/mcp");
        assertThat(read(machine.home.resolve(".claude.json"))).doesNotContain(TOKEN);
        assertThat(JsonText.parseObject(runShell(server.get("headersHelper").asText())))
                .isEqualTo(JsonText.parseObject("{\"Authorization\": \"Bearer " + TOKEN + "\"}"));
        assertThat(mode(machine.home.resolve(".claude.json"))).isEqualTo("rw-------");
    }

    /**
     * Claude Code connects to its MCP servers while the SessionStart hook is still starting the sidecar; the helper
     * first runs the hook's Ready, bounded under Claude Code's 10 s, so the sidecar answers before the connection.
     * Whatever the hook prints, Claude Code reads the headers alone.
     */
    @Test
    void theHeaderHelperWaitsForTheSidecarThroughTheHookBeforePrintingTheHeaders() throws Exception {
        writeToken(batonHome, TOKEN + "\n");
        machine.install(Scope.USER, Agent.CLAUDE);
        Path calls = machine.root.resolve("hook-calls");
        Files.writeString(machine.layout().hookScript(), """
                #!/bin/sh
                printf '%%s %%s budgets %%s %%s stdin [%%s]\\n' "$1" "$2" "$BATON_HOOK_TIMEOUT" "$BATON_HOOK_START_TIMEOUT" \
                    "$(cat)" >>%s
                echo "what the hook prints"; echo "and on stderr" >&2
                exit 2
                """.formatted(calls));

        String helper = JsonText.parseObject(read(machine.home.resolve(".claude.json"))).at("/mcpServers/baton/headersHelper").asText();

        assertThat(runShell(helper)).isEqualTo("{\"Authorization\":\"Bearer " + TOKEN + "\"}");
        assertThat(read(calls)).isEqualTo("claude Ready budgets 8 8 stdin []\n");
    }

    @Test
    void existingClaudeJsonKeepsItsServersProjectsAndNumbers() throws Exception {
        String original = resource("claude-json.json");
        Path claudeJson = write(machine.home.resolve(".claude.json"), original);
        writeToken(batonHome, TOKEN);

        machine.install(Scope.USER, Agent.CLAUDE);

        ObjectNode before = JsonText.parseObject(original);
        ObjectNode after = JsonText.parseObject(read(claudeJson));
        ((ObjectNode) after.get("mcpServers")).remove("baton");
        assertThat(after).isEqualTo(before);
        assertThat(read(claudeJson)).contains("\"lastCost\": 1.2345", "\"env\": {}", "\"allowedTools\": []");

        machine.uninstall(Scope.USER, Agent.CLAUDE);

        assertThat(read(claudeJson)).isEqualTo(original);
    }

    @Test
    void projectScopeReferencesTheTokenVariableInsteadOfTheSecret() throws Exception {
        writeToken(batonHome, TOKEN);

        machine.install(Scope.PROJECT, Agent.CLAUDE);

        String mcpJson = read(machine.project.resolve(".mcp.json"));
        assertThat(mcpJson).contains("\"Authorization\": \"Bearer ${BATON_TOKEN}\"").doesNotContain(TOKEN);
        assertThat(machine.out()).contains("BATON_TOKEN");
    }

    @Test
    void localScopeRegistersTheServerUnderTheProjectInClaudeJson() throws Exception {
        writeToken(batonHome, TOKEN);

        machine.install(Scope.LOCAL, Agent.CLAUDE);

        ObjectNode claudeJson = JsonText.parseObject(read(machine.home.resolve(".claude.json")));
        String helper = claudeJson.get("projects").get(machine.project.toString()).at("/mcpServers/baton/headersHelper").asText();
        assertThat(runShell(helper)).isEqualTo("{\"Authorization\":\"Bearer " + TOKEN + "\"}");
        assertThat(machine.project.resolve(".mcp.json")).doesNotExist();

        machine.uninstall(Scope.LOCAL, Agent.CLAUDE);
        assertThat(machine.home.resolve(".claude.json")).doesNotExist();
    }

    @Test
    void copilotGetsTheServerWithAllToolsNextToItsOtherServers() throws Exception {
        String original = resource("copilot-mcp-config.json");
        Path config = write(machine.home.resolve(".copilot/mcp-config.json"), original);
        writeToken(batonHome, TOKEN);
        machine.env.put("BATON_PORT", "7999");

        machine.install(Scope.USER, Agent.COPILOT);

        JsonNode servers = JsonText.parseObject(read(config)).get("mcpServers");
        assertThat(servers.get("playwright")).isEqualTo(JsonText.parseObject(original).at("/mcpServers/playwright"));
        assertThat(servers.get("baton")).isEqualTo(JsonText.parseObject("""
                {"type": "http", "url": "http://127.0.0.1:7999/mcp",
                 "headers": {"Authorization": "Bearer %s"}, "tools": ["*"]}""".formatted(TOKEN)));

        machine.uninstall(Scope.USER, Agent.COPILOT);
        assertThat(read(config)).isEqualTo(original);
    }

    @Test
    void theDefaultPortIs7433() throws Exception {
        machine.install(Scope.USER, Agent.CLAUDE);

        assertThat(JsonText.parseObject(read(machine.home.resolve(".claude.json"))).at("/mcpServers/baton/url").asText())
                .isEqualTo("http://127.0.0.1:7433/mcp");
    }

    @Test
    void aMissingTokenIsCreatedLikeTheSidecarDoes() throws Exception {
        machine.env.put("XDG_STATE_HOME", machine.root.resolve("state").toString());

        machine.install(Scope.USER, Agent.CLAUDE);

        Path home = machine.root.resolve("state/baton");
        String token = read(home.resolve("token")).strip();
        assertThat(read(home.resolve("token"))).matches("[0-9a-f]{64}\n");
        assertThat(mode(home.resolve("token"))).isEqualTo("rw-------");
        assertThat(mode(home)).isEqualTo("rwx------");
        String helper = JsonText.parseObject(read(machine.home.resolve(".claude.json"))).at("/mcpServers/baton/headersHelper").asText();
        assertThat(runShell(helper)).isEqualTo("{\"Authorization\":\"Bearer " + token + "\"}");
    }

    @Test
    void uninstallSavesNoBackupOfAFileTheAgentChangedSinceInstallCreatedIt() throws Exception {
        machine.install(Scope.USER, Agent.CLAUDE);
        Path claudeJson = machine.home.resolve(".claude.json");
        write(claudeJson, read(claudeJson).replaceFirst("\\{", "{\"numStartups\": 3,"));

        machine.uninstall(Scope.USER, Agent.CLAUDE);

        assertThat(read(claudeJson)).contains("\"numStartups\": 3").doesNotContain("baton");
        assertThat(claudeJson.resolveSibling(".claude.json.baton-backup")).doesNotExist();
        assertThat(machine.out()).doesNotContain("original saved as .claude.json");
    }

    @Test
    void anMcpFileThatHoldsTheTokenIsMadeOwnerOnly() throws Exception {
        Path config = write(machine.home.resolve(".copilot/mcp-config.json"), resource("copilot-mcp-config.json"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));

        machine.install(Scope.USER, Agent.COPILOT);

        assertThat(read(config)).contains("Bearer ");
        assertThat(mode(config)).isEqualTo("rw-------");
    }

    @Test
    void uninstallingAProjectScopeLeavesTheUserScopeCopilotServerAlone() throws Exception {
        machine.install(Scope.USER, Agent.COPILOT);
        machine.install(Scope.PROJECT, Agent.COPILOT);
        String userConfig = read(machine.home.resolve(".copilot/mcp-config.json"));

        machine.uninstall(Scope.PROJECT, Agent.COPILOT);

        assertThat(read(machine.home.resolve(".copilot/mcp-config.json"))).isEqualTo(userConfig).contains("\"baton\"");
        assertThat(machine.project.resolve(".github/hooks/baton.json")).doesNotExist();
        assertThat(machine.home.resolve(".copilot/hooks/baton.json")).exists();
    }

    @Test
    void noMcpLeavesTheMcpFilesAlone() throws Exception {
        machine.installer().install(machine.target(Scope.USER), false, false);

        assertThat(machine.home.resolve(".claude.json")).doesNotExist();
        assertThat(machine.home.resolve(".copilot/mcp-config.json")).doesNotExist();
        assertThat(batonHome.resolve("token")).doesNotExist();
        assertThat(machine.userSettings()).exists();
    }

    @Test
    void aNewlyConfiguredPortUpdatesTheEntryInPlace() throws Exception {
        writeToken(batonHome, TOKEN);
        machine.install(Scope.USER, Agent.CLAUDE);
        machine.env.put("BATON_PORT", "50001");

        machine.install(Scope.USER, Agent.CLAUDE);

        assertThat(machine.out()).contains("~ MCP server baton");
        assertThat(read(machine.home.resolve(".claude.json"))).contains("http://127.0.0.1:50001/mcp");
        McpRegistration.Placement placement =
                McpRegistration.claude(machine.layout(), new Target(EnumSet.of(Agent.CLAUDE), Scope.USER, machine.project));
        assertThat(McpRegistration.find(JsonText.parseObject(read(machine.home.resolve(".claude.json"))), placement))
                .isPresent();
    }

    @Test
    void portZeroIsRefusedBecauseNoEntryCouldNameIt() throws Exception {
        machine.env.put("BATON_PORT", "0");

        assertThatThrownBy(() -> machine.install(Scope.USER, Agent.CLAUDE))
                .isInstanceOf(InstallerException.class)
                .hasMessageContaining("BATON_PORT=0")
                .hasMessageContaining("--no-mcp");
        assertThat(machine.home.resolve(".claude.json")).doesNotExist();
        assertThat(machine.userSettings()).doesNotExist();
    }

    /** Runs a command line as Claude Code runs a header helper: through a shell, reading its standard output. */
    private static String runShell(String command) throws Exception {
        Process process = new ProcessBuilder("/bin/sh", "-c", command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isZero();
        return output;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    /** A token file as the sidecar or the installer leaves it: owner-only (one others can read is refused). */
    private static void writeToken(java.nio.file.Path batonHome, String text) throws java.io.IOException {
        java.nio.file.Files.setPosixFilePermissions(write(batonHome.resolve("token"), text),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }
}
