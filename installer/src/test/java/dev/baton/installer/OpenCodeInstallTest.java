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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenCodeInstallTest extends MachineFixture {

    /** An opencode.json as OpenCode accepts it: comments, a trailing comma, a server of the user's own. */
    private static final String USERS_CONFIG = """
            {
              // my provider
              "model": "anthropic/claude-sonnet-4-5",
              "mcp": {
                "docs": { "type": "remote", "url": "https://example.com/mcp", },
              },
            }
            """;

    private Path userPlugin() {
        return machine.home.resolve(".config/opencode/plugins/baton.js");
    }

    @Test
    void installWritesThePluginAndTheMcpServerAndUninstallGivesTheConfigItsBytesBack() throws Exception {
        Path config = write(machine.home.resolve(".config/opencode/opencode.json"), USERS_CONFIG);

        machine.install(Scope.USER, Agents.OPENCODE);

        String plugin = read(userPlugin());
        assertThat(plugin).startsWith("// Baton's OpenCode plug-in")
                .contains("const HOOK_SCRIPT = \"" + machine.hookScript() + "\"").doesNotContain("@BATON_HOOK_SCRIPT@");
        ObjectNode tree = JsonText.parseObject(read(config), JsonSyntax.COMMENTS_AND_TRAILING_COMMAS);
        assertThat(tree.at("/mcp/baton")).isEqualTo(JsonText.parseObject("""
                {"type": "local", "command": ["%s"]}""".formatted(machine.layout().mcpScript())));
        assertThat(tree.at("/mcp/docs/url").asText()).isEqualTo("https://example.com/mcp");
        assertThat(read(config)).contains("// my provider");
        assertThat(machine.out()).contains("OpenCode loads plug-ins when it starts");

        machine.uninstall(Scope.USER, Agents.OPENCODE);

        assertThat(read(config)).isEqualTo(USERS_CONFIG);
        assertThat(config.resolveSibling("opencode.json.baton-backup")).doesNotExist();
        assertThat(userPlugin()).doesNotExist();
        assertThat(userPlugin().getParent()).as("the plugins directory install made").doesNotExist();
    }

    @Test
    void aProjectInstallPutsThePluginInTheProjectAndUninstallLeavesNoTrace() throws Exception {
        var before = machine.allFiles();

        machine.install(Scope.PROJECT, Agents.OPENCODE);

        assertThat(read(machine.project.resolve(".opencode/plugins/baton.js"))).startsWith("// Baton's OpenCode plug-in");
        assertThat(JsonText.parseObject(read(machine.project.resolve("opencode.json"))).at("/mcp/baton/type").asText())
                .isEqualTo("local");
        assertThat(userPlugin()).doesNotExist();

        machine.uninstall(Scope.PROJECT, Agents.OPENCODE);

        assertThat(machine.project.resolve("opencode.json")).doesNotExist();
        assertThat(machine.project.resolve(".opencode")).doesNotExist();
        var after = machine.allFiles();
        after.keySet().removeIf(file -> file.startsWith("home/dev/.local")); // the program files install put in place
        before.keySet().removeIf(file -> file.startsWith("home/dev/.local"));
        assertThat(after.keySet()).isEqualTo(before.keySet());
    }

    @Test
    void aFileOfTheUsersUnderThePluginsNameIsRefusedAndNothingIsWritten() throws Exception {
        write(userPlugin(), "export const Mine = async () => ({})\n");
        Path config = write(machine.home.resolve(".config/opencode/opencode.json"), USERS_CONFIG);

        assertThatThrownBy(() -> machine.install(Scope.USER, Agents.OPENCODE))
                .isInstanceOf(InstallerException.class).hasMessageContaining("it is not Baton's OpenCode plug-in");

        assertThat(read(userPlugin())).isEqualTo("export const Mine = async () => ({})\n");
        assertThat(read(config)).isEqualTo(USERS_CONFIG);
    }

    @Test
    void openCodesConfigDirectoryFollowsXdgConfigHome() throws Exception {
        machine.env.put("XDG_CONFIG_HOME", machine.root.resolve("xdg").toString());

        machine.install(Scope.USER, Agents.OPENCODE);

        assertThat(machine.root.resolve("xdg/opencode/plugins/baton.js")).exists();
        assertThat(machine.root.resolve("xdg/opencode/opencode.json")).exists();
        assertThat(userPlugin()).doesNotExist();
    }

    @Test
    void theDoctorReportsThePluginCurrentAndTheMcpEntryThenAPluginChangedSinceInstall() throws Exception {
        machine.install(Scope.USER, Agents.OPENCODE);

        String report = doctorReport();

        assertThat(report).contains("✔ OpenCode plug-in " + userPlugin() + " is this install's plug-in")
                .contains("✔ OpenCode MCP     mcp.baton in " + machine.home.resolve(".config/opencode/opencode.json"))
                .contains("✔ OpenCode shell");

        Files.writeString(userPlugin(), read(userPlugin()).replace("BATON_FAIL_OPEN === \"1\"", "true"));

        assertThat(doctorReport()).contains("✘ OpenCode plug-in " + userPlugin() + " is not the plug-in this install writes")
                .contains("fix: baton install --opencode --scope user");
    }

    @Test
    void theDoctorSaysWhenOpenCodeIsThereWithoutBaton() throws Exception {
        Files.createDirectories(machine.home.resolve(".config/opencode"));

        assertThat(doctorReport()).contains("✘ OpenCode plug-in no plug-in directory of OpenCode holds Baton's plug-in")
                .contains("✘ OpenCode MCP     no baton server in an opencode.json");
    }

    private String doctorReport() {
        StringWriter out = new StringWriter();
        Doctor.report(new Doctor(machine.layout(), machine.project, Duration.ofSeconds(2), Map.of("HOME",
                machine.home.toString(), "PATH", "/usr/bin:/bin")).run(), new PrintWriter(out));
        return out.toString();
    }
}
