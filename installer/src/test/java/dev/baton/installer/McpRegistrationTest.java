package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.resource;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
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
    void userScopeRegistersBatonMcpAsClaudesStdioServerSoNoTokenOrAddressLandsInClaudeJson() throws Exception {
        machine.env.put("BATON_PORT", "48123");
        writeToken(batonHome, TOKEN + "\n");

        machine.install(Scope.USER, Agents.CLAUDE);

        String claudeJson = read(machine.home.resolve(".claude.json"));
        assertThat(JsonText.parseObject(claudeJson).at("/mcpServers/baton")).isEqualTo(JsonText.parseObject("""
                {"type": "stdio", "command": "%s", "args": []}""".formatted(machine.layout().mcpScript())));
        assertThat(claudeJson).doesNotContain(TOKEN).doesNotContain("48123");
        assertThat(mode(machine.home.resolve(".claude.json"))).isEqualTo("rw-------");
    }

    /** The entry an earlier build wrote (HTTP, with a headers helper) is replaced where it stands. */
    @Test
    void anHttpEntryOfAnEarlierBuildIsReplacedInPlace() throws Exception {
        Path claudeJson = write(machine.home.resolve(".claude.json"), """
                {"mcpServers": {"first": {"command": "a"}, "baton": {"type": "http", "url": "http://127.0.0.1:7433/mcp",
                 "headersHelper": "printf x"}, "last": {"command": "b"}}}""");

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(machine.out()).contains("~ MCP server baton");
        JsonNode servers = JsonText.parseObject(read(claudeJson)).get("mcpServers");
        assertThat(servers.fieldNames()).toIterable().containsExactly("first", "baton", "last");
        assertThat(servers.get("baton").get("command").asText()).isEqualTo(machine.layout().mcpScript().toString());
        assertThat(servers.get("baton").has("url")).isFalse();
    }

    /**
     * An earlier install ran the hook script as the MCP server ({@code baton-hook claude Mcp}); installing again puts
     * baton-mcp in its place, and uninstall still gives the file its original bytes back.
     */
    @Test
    void anEntryThatRanTheHookScriptAsMcpServerIsReplacedByBatonMcpAndUninstallRestoresTheOriginal() throws Exception {
        String original = resource("claude-json.json");
        Path claudeJson = write(machine.home.resolve(".claude.json"), original);
        machine.install(Scope.USER, Agents.CLAUDE);
        String current = """
                {"type": "stdio", "command": "%s", "args": []}""".formatted(machine.layout().mcpScript());
        String earlier = """
                {"type": "stdio", "command": "%s", "args": ["claude", "Mcp"]}""".formatted(machine.layout().hookScript());
        ObjectNode tree = JsonText.parseObject(read(claudeJson));
        List<String> order = new java.util.ArrayList<>();
        tree.get("mcpServers").fieldNames().forEachRemaining(order::add);
        ((ObjectNode) tree.get("mcpServers")).set("baton", JsonText.parseObject(earlier));
        write(claudeJson, tree.toPrettyString());

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(machine.out()).contains("~ MCP server baton");
        JsonNode servers = JsonText.parseObject(read(claudeJson)).get("mcpServers");
        assertThat(servers.fieldNames()).toIterable().containsExactlyElementsOf(order);
        assertThat(servers.get("baton")).isEqualTo(JsonText.parseObject(current));

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(claudeJson)).isEqualTo(original);
    }

    @Test
    void existingClaudeJsonKeepsItsServersProjectsAndNumbers() throws Exception {
        String original = resource("claude-json.json");
        Path claudeJson = write(machine.home.resolve(".claude.json"), original);
        writeToken(batonHome, TOKEN);

        machine.install(Scope.USER, Agents.CLAUDE);

        ObjectNode before = JsonText.parseObject(original);
        ObjectNode after = JsonText.parseObject(read(claudeJson));
        ((ObjectNode) after.get("mcpServers")).remove("baton");
        assertThat(after).isEqualTo(before);
        assertThat(read(claudeJson)).contains("\"lastCost\": 1.2345", "\"env\": {}", "\"allowedTools\": []");

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(claudeJson)).isEqualTo(original);
    }

    @Test
    void projectScopeRegistersTheSameCommandAndAsksForNoTokenVariable() throws Exception {
        writeToken(batonHome, TOKEN);

        machine.install(Scope.PROJECT, Agents.CLAUDE);

        JsonNode server = JsonText.parseObject(read(machine.project.resolve(".mcp.json"))).at("/mcpServers/baton");
        assertThat(server.get("command").asText()).isEqualTo(machine.layout().mcpScript().toString());
        assertThat(read(machine.project.resolve(".mcp.json"))).doesNotContain(TOKEN).doesNotContain("BATON_TOKEN");
        assertThat(machine.out()).doesNotContain("BATON_TOKEN");
    }

    @Test
    void localScopeRegistersTheServerUnderTheProjectInClaudeJson() throws Exception {
        machine.install(Scope.LOCAL, Agents.CLAUDE);

        ObjectNode claudeJson = JsonText.parseObject(read(machine.home.resolve(".claude.json")));
        assertThat(claudeJson.get("projects").get(machine.project.toString()).at("/mcpServers/baton/args"))
                .isEqualTo(JsonText.parseObject("{\"a\": []}").get("a"));
        assertThat(claudeJson.has("mcpServers")).isFalse();
        assertThat(machine.project.resolve(".mcp.json")).doesNotExist();

        machine.uninstall(Scope.LOCAL, Agents.CLAUDE);
        assertThat(machine.home.resolve(".claude.json")).doesNotExist();
    }

    @Test
    void copilotGetsTheServerWithAllToolsNextToItsOtherServers() throws Exception {
        String original = resource("copilot-mcp-config.json");
        Path config = write(machine.home.resolve(".copilot/mcp-config.json"), original);
        writeToken(batonHome, TOKEN);
        machine.env.put("BATON_PORT", "7999");

        machine.install(Scope.USER, Agents.COPILOT);

        JsonNode servers = JsonText.parseObject(read(config)).get("mcpServers");
        assertThat(servers.get("playwright")).isEqualTo(JsonText.parseObject(original).at("/mcpServers/playwright"));
        assertThat(servers.get("baton")).isEqualTo(JsonText.parseObject("""
                {"type": "local", "command": "%s", "args": [], "tools": ["*"]}"""
                .formatted(machine.layout().mcpScript())));

        machine.uninstall(Scope.USER, Agents.COPILOT);
        assertThat(read(config)).isEqualTo(original);
    }

    @Test
    void copilotsMcpFileWithCommentsAndTrailingCommasKeepsThemAndGetsItsBytesBack() throws Exception {
        // Copilot CLI 1.0.102 lists this file's server (`copilot mcp list`): it reads comments and trailing commas.
        String original = """
                {
                  // servers for every repository
                  "mcpServers": {
                    "playwright": {"type": "local", "command": "npx", "args": ["@playwright/mcp@latest"], "tools": ["*"],},
                  },
                }
                """;
        Path config = write(machine.home.resolve(".copilot/mcp-config.json"), original);

        machine.install(Scope.USER, Agents.COPILOT);

        String installed = read(config);
        assertThat(installed).startsWith("{\n  // servers for every repository\n  \"mcpServers\": {\n    \"playwright\": "
                + "{\"type\": \"local\", \"command\": \"npx\", \"args\": [\"@playwright/mcp@latest\"], \"tools\": [\"*\"],},\n"
                + "    \"baton\": {\n").endsWith("    },\n  },\n}\n");
        assertThat(JsonText.parseObject(installed, JsonSyntax.COMMENTS_AND_TRAILING_COMMAS).at("/mcpServers/baton/command")
                .asText()).isEqualTo(machine.layout().mcpScript().toString());
        write(config, installed.replace("@playwright/mcp@latest", "@playwright/mcp@0.0.41"));

        machine.uninstall(Scope.USER, Agents.COPILOT);

        assertThat(read(config)).isEqualTo(original.replace("@playwright/mcp@latest", "@playwright/mcp@0.0.41"));
    }

    @Test
    void installMakesAPrivateBatonHomeAndItsTokenLikeTheSidecarDoes() throws Exception {
        machine.env.put("XDG_STATE_HOME", machine.root.resolve("state").toString());

        machine.installer().install(machine.target(Scope.USER), false, false);

        Path home = machine.root.resolve("state/baton");
        assertThat(mode(home)).isEqualTo("rwx------");
        assertThat(read(home.resolve("token"))).matches("[0-9a-f]{64}\n");
        assertThat(mode(home.resolve("token"))).isEqualTo("rw-------");
    }

    @Test
    void uninstallSavesNoBackupOfAFileTheAgentChangedSinceInstallCreatedIt() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        Path claudeJson = machine.home.resolve(".claude.json");
        write(claudeJson, read(claudeJson).replaceFirst("\\{", "{\"numStartups\": 3,"));

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(claudeJson)).contains("\"numStartups\": 3").doesNotContain("baton");
        assertThat(claudeJson.resolveSibling(".claude.json.baton-backup")).doesNotExist();
        assertThat(machine.out()).doesNotContain("original saved as .claude.json");
    }

    @Test
    void anMcpFileKeepsItsModeSinceNoSecretGoesIntoIt() throws Exception {
        Path config = write(machine.home.resolve(".copilot/mcp-config.json"), resource("copilot-mcp-config.json"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));

        machine.install(Scope.USER, Agents.COPILOT);

        assertThat(read(config)).contains("\"baton\"").doesNotContain("Bearer");
        assertThat(mode(config)).isEqualTo("rw-r--r--");
    }

    @Test
    void uninstallingAProjectScopeLeavesTheUserScopeCopilotServerAlone() throws Exception {
        machine.install(Scope.USER, Agents.COPILOT);
        machine.install(Scope.PROJECT, Agents.COPILOT);
        String userConfig = read(machine.home.resolve(".copilot/mcp-config.json"));

        machine.uninstall(Scope.PROJECT, Agents.COPILOT);

        assertThat(read(machine.home.resolve(".copilot/mcp-config.json"))).isEqualTo(userConfig).contains("\"baton\"");
        assertThat(machine.project.resolve(".github/hooks/baton.json")).doesNotExist();
        assertThat(machine.home.resolve(".copilot/hooks/baton.json")).exists();
    }

    @Test
    void noMcpLeavesTheMcpFilesAlone() throws Exception {
        machine.installer().install(machine.target(Scope.USER), false, false);

        assertThat(machine.home.resolve(".claude.json")).doesNotExist();
        assertThat(machine.home.resolve(".copilot/mcp-config.json")).doesNotExist();
        assertThat(machine.userSettings()).exists();
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
