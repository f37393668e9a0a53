package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.codex.CodexConfigToml;
import dev.baton.agent.codex.CodexTrust;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.Scope;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CodexInstallTest extends MachineFixture {

    private static final String USER_CONFIG = """
            model = "gpt-5.5"   # the user's own comment
            approval_policy = "never"

            [projects."/work/shop"]
            trust_level = "trusted"
            """;

    @Test
    void configTomlIsSavedOnceBeforeBatonsFirstEditAndUninstallGivesItsBytesBack() throws Exception {
        Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG);
        Path backup = machine.home.resolve(".codex/config.toml.baton-backup");

        machine.install(Scope.USER, Agents.CODEX);
        machine.install(Scope.USER, Agents.CODEX, Agents.CLAUDE);

        assertThat(read(backup)).isEqualTo(USER_CONFIG);
        assertThat(machine.out()).containsOnlyOnce("original saved as config.toml.baton-backup");
        machine.uninstall(Scope.USER, Agents.CODEX);
        assertThat(read(config)).isEqualTo(USER_CONFIG);
        assertThat(backup).doesNotExist();
        assertThat(machine.out()).contains("original bytes restored from config.toml.baton-backup");
    }

    @Test
    void uninstallKeepsWhatTheUserChangedInConfigTomlSinceAndRetiresTheBackup() throws Exception {
        Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG);
        machine.install(Scope.USER, Agents.CODEX);
        write(config, read(config).replace("\"gpt-5.5\"", "\"gpt-5.5-codex\""));

        machine.uninstall(Scope.USER, Agents.CODEX);

        assertThat(read(config)).isEqualTo(USER_CONFIG.replace("\"gpt-5.5\"", "\"gpt-5.5-codex\""));
        assertThat(machine.home.resolve(".codex/config.toml.baton-backup")).doesNotExist();
        assertThat(machine.out()).contains("backup config.toml.baton-backup removed, no longer needed");
    }

    @Test
    void theTrustHashIsTheOneCodexItselfComputes() {
        // Reported as currentHash by `codex app-server` (Codex CLI 0.169.0, hooks/list) for this very hook.
        ObjectNode handler = JsonText.MAPPER.createObjectNode()
                .put("type", "command").put("command", "/x/baton-hook codex PreToolUse").put("timeout", 10);

        assertThat(CodexTrust.hash("pre_tool_use", "apply_patch|Edit|Write", handler))
                .isEqualTo("sha256:667ab39b33ddf2e87d1ba5511c5245bd0132c19d6ae877bd9ffdc663262fa8e1");
        assertThat(CodexTrust.label("PreToolUse")).isEqualTo("pre_tool_use");
        assertThat(CodexTrust.label("SessionEnd")).isEqualTo("session_end");
    }

    @Test
    void installWritesCodexHooksAndTrustsThemInConfigTomlKeepingTheUsersBytes() throws Exception {
        Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG);

        machine.install(Scope.USER, Agents.CODEX);

        Path hooksFile = machine.home.resolve(".codex/hooks.json");
        ObjectNode hooks = JsonText.parseObject(read(hooksFile));
        List<String> events = new ArrayList<>();
        hooks.get("hooks").fieldNames().forEachRemaining(events::add);
        assertThat(events).containsExactly("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd");
        assertThat(hooks.at("/hooks/PreToolUse/0/matcher").asText())
                .isEqualTo("apply_patch|Edit|Write|Bash|exec_command|shell|local_shell");
        assertThat(hooks.at("/hooks/SessionEnd/0/hooks/0/timeout").asInt()).isEqualTo(3);
        String text = read(config);
        assertThat(text).startsWith(USER_CONFIG);
        Map<String, String> entries = CodexTrust.batonEntries(hooksFile, hooks);
        assertThat(entries).hasSize(5).containsKey(hooksFile + ":pre_tool_use:0:0");
        for (Map.Entry<String, String> entry : entries.entrySet()) {
            assertThat(CodexConfigToml.trustedHash(text, entry.getKey())).contains(entry.getValue());
        }
        JsonNode server = CodexConfigToml.mcpServer(text).orElseThrow();
        assertThat(server.path("command").asText()).isEqualTo(machine.layout().mcpScript().toString());
        assertThat(server.path("args")).isEqualTo(JsonText.parseObject("{\"a\": []}").get("a"));
        // Codex starts its MCP servers with a handful of variables only: the script and the sidecar need theirs.
        assertThat(server.path("env_vars").toString()).contains("\"BATON_HOME\"", "\"XDG_STATE_HOME\"", "\"BATON_PORT\"");
        assertThat(server.path("startup_timeout_sec").asInt()).isGreaterThan(20);
        assertThat(text).doesNotContain("Bearer");

        machine.install(Scope.USER, Agents.CODEX);
        assertThat(read(config)).isEqualTo(text);

        machine.uninstall(Scope.USER, Agents.CODEX);
        assertThat(read(config)).isEqualTo(USER_CONFIG);
        assertThat(hooksFile).doesNotExist();
    }

    /** An earlier install's server ran the hook script ({@code baton-hook codex Mcp}): installing again runs baton-mcp. */
    @Test
    void anMcpServerThatRanTheHookScriptIsReplacedByBatonMcpAndUninstallRestoresTheOriginal() throws Exception {
        Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG);
        machine.install(Scope.USER, Agents.CODEX);
        String current = "command = \"" + machine.layout().mcpScript() + "\"\nargs = []\n";
        assertThat(read(config)).contains(current);
        write(config, read(config).replace(current, "command = \"" + machine.hookScript() + "\"\nargs = [\"codex\", \"Mcp\"]\n"));

        machine.install(Scope.USER, Agents.CODEX);

        JsonNode server = CodexConfigToml.mcpServer(read(config)).orElseThrow();
        assertThat(server.path("command").asText()).isEqualTo(machine.layout().mcpScript().toString());
        assertThat(server.path("args")).isEmpty();
        assertThat(read(config)).doesNotContain("Mcp\"");

        machine.uninstall(Scope.USER, Agents.CODEX);
        assertThat(read(config)).isEqualTo(USER_CONFIG);
    }

    /**
     * Codex starts Baton's MCP server with a few variables only, and that server may start the sidecar: every setting
     * the hook script, the installed launcher and the sidecar read must be passed on, or a sidecar started there
     * would run with defaults the user did not choose. Read from the sources, so a new setting cannot be forgotten.
     */
    @Test
    void codexPassesOnEverySettingTheScriptAndTheSidecarItMayStartRead() throws Exception {
        java.util.Set<String> read = new java.util.TreeSet<>();
        java.util.regex.Pattern javaName = java.util.regex.Pattern.compile("\"(BATON_[A-Z_]+)\"");
        for (String module : List.of("sidecar", "home")) {
            try (java.util.stream.Stream<Path> files = Files.walk(Path.of("..", module, "src", "main", "java"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    javaName.matcher(Files.readString(file)).results().forEach(m -> read.add(m.group(1)));
                }
            }
        }
        java.util.regex.Pattern shellName = java.util.regex.Pattern.compile("\\$\\{?(BATON[A-Z_]*|XDG_STATE_HOME|CLAUDE_FILE_LOCK)\\b");
        for (Path script : List.of(Path.of("..", "hook-scripts", "baton-hook"), Path.of("..", "hook-scripts", "baton-mcp"),
                Path.of("..", "hook-scripts", "baton-sidecar.bash"), Path.of("..", "hook-scripts", "baton-sidecar-start.bash"),
                Path.of("src", "main", "java", "dev", "baton", "installer", "program", "ProgramFiles.java"))) {
            shellName.matcher(Files.readString(script)).results().forEach(m -> read.add(m.group(1)));
        }
        // Not the MCP server's or the sidecar's: the dashboard's jar, whether a hook lets an unchecked edit through,
        // and what the shell wrapper alone reads (the mark of a command under it, a prefix it runs commands through).
        read.removeAll(List.of("BATON_DASHBOARD_JAR", "BATON_FAIL_OPEN", "BATON_SHELL_GUARD", "BATON_NEXT_SHELL_PREFIX"));

        assertThat(read).contains("BATON_HOME", "BATON_PORT", "BATON_SHELL", "BATON_JAVA_OPTS", "BATON");
        assertThat(CodexConfigToml.MCP_VARIABLES).containsAll(read);
    }

    @Test
    void codexsShellCommandsGetBatonsBashEnvInsideTheUsersOwnPolicyTableAndUninstallGivesTheBytesBack() throws Exception {
        Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG
                + "\n[shell_environment_policy]\ninherit = \"all\"\n\n[shell_environment_policy.set]\nPROJECT = \"shop\"\n");
        String original = read(config);

        machine.install(Scope.USER, Agents.CODEX);

        String installed = read(config);
        String bashEnv = machine.layout().hookScript().resolveSibling("baton-bash-env").toString();
        assertThat(CodexConfigToml.shellEnvironment(installed)).contains(bashEnv);
        assertThat(installed).contains("[shell_environment_policy.set]\n" + CodexConfigToml.MARKER + "\nBASH_ENV = \"" + bashEnv
                + "\"\nPROJECT = \"shop\"\n");
        assertThat(machine.layout().hookScript().resolveSibling("baton-bash-env")).exists();
        assertThat(machine.layout().hookScript().resolveSibling("baton-shell")).isExecutable();

        machine.uninstall(Scope.USER, Agents.CODEX);

        assertThat(read(config)).isEqualTo(original);
    }

    @Test
    void aBashEnvOfTheUsersOwnOrAnInlinePolicyIsLeftAloneAndInstallSaysSo() throws Exception {
        for (String own : List.of("[shell_environment_policy]\nset = { BASH_ENV = \"/home/dev/.bash_codex\" }\n",
                "[shell_environment_policy]\nset = { PROJECT = \"shop\" }\n")) {
            Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG + "\n" + own);

            machine.install(Scope.USER, Agents.CODEX);

            assertThat(read(config)).contains(own).doesNotContain("baton-bash-env");
            assertThat(machine.out()).contains("skipped           Codex's shell commands through Baton's wrapper: " + config);
            machine.uninstall(Scope.USER, Agents.CODEX);
            assertThat(read(config)).isEqualTo(USER_CONFIG + "\n" + own);
        }
    }

    @Test
    void aConfigTomlThatOnlyBatonWroteGoesAwayOnUninstall() throws Exception {
        machine.install(Scope.USER, Agents.CODEX);

        machine.uninstall(Scope.USER, Agents.CODEX);

        assertThat(machine.home.resolve(".codex/config.toml")).doesNotExist();
    }

    @Test
    void aHookTheUserAlreadyTrustedKeepsItsTableAndGetsTheNewHash() throws Exception {
        Path hooksFile = machine.home.resolve(".codex/hooks.json");
        Path config = write(machine.home.resolve(".codex/config.toml"), USER_CONFIG + "\n[hooks.state.\"" + hooksFile
                + ":pre_tool_use:0:0\"]\nenabled = true\ntrusted_hash = \"sha256:old\"\n");

        machine.install(Scope.USER, Agents.CODEX);

        String text = read(config);
        assertThat(text).contains("enabled = true").doesNotContain("sha256:old");
        assertThat(CodexConfigToml.trustedHash(text, hooksFile + ":pre_tool_use:0:0"))
                .contains(CodexTrust.batonEntries(hooksFile, JsonText.parseObject(read(hooksFile)))
                        .get(hooksFile + ":pre_tool_use:0:0"));
    }

    @Test
    void uninstallingTheProjectScopeLeavesTheUserScopesTrustAlone() throws Exception {
        machine.install(Scope.USER, Agents.CODEX);
        String userOnly = read(machine.home.resolve(".codex/config.toml"));
        machine.install(Scope.PROJECT, Agents.CODEX);
        assertThat(read(machine.home.resolve(".codex/config.toml")))
                .contains(machine.project.resolve(".codex/hooks.json") + ":pre_tool_use:0:0");

        machine.uninstall(Scope.PROJECT, Agents.CODEX);

        assertThat(read(machine.home.resolve(".codex/config.toml"))).isEqualTo(userOnly);
        assertThat(machine.home.resolve(".codex/hooks.json")).exists();
    }

    @Test
    void doctorReportsHooksCodexDoesNotTrust() throws Exception {
        machine.install(Scope.USER, Agents.CODEX);
        Path config = machine.home.resolve(".codex/config.toml");
        Files.writeString(config, read(config).replaceAll("sha256:[0-9a-f]{64}", "sha256:0000"));

        List<Check> checks = new Doctor(machine.layout(), machine.project, java.time.Duration.ofSeconds(2)).run();

        assertThat(checks).filteredOn(check -> check.subject().equals("Codex trust")).singleElement().satisfies(check -> {
            assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
            assertThat(check.detail()).contains("Codex skips Baton's untrusted hooks pre_tool_use:0:0");
            assertThat(check.fix()).contains("baton install --codex --scope user");
        });
    }

    /** Asks a real Codex CLI, when one is at hand ($BATON_TEST_CODEX or `codex` on PATH), whether it trusts the hooks. */
    @Test
    void aRealCodexTrustsEveryHookBatonInstalled() throws Exception {
        Optional<Path> codex = realCodex();
        assumeTrue(codex.isPresent(), "no Codex CLI here");
        machine.install(Scope.USER, Agents.CODEX);

        Map<String, String> env = Map.of("HOME", machine.home.toString(), "CODEX_HOME", machine.home.resolve(".codex").toString());
        ProcessBuilder builder = new ProcessBuilder(codex.get().toString(), "app-server")
                .redirectError(ProcessBuilder.Redirect.DISCARD).directory(machine.project.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"clientInfo\":{\"name\":\"baton-test\",\"version\":\"0\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hooks/list\",\"params\":{\"cwds\":[\"" + machine.project + "\"]}}\n")
                    .getBytes(StandardCharsets.UTF_8));
            in.flush();
            JsonNode answer = null;
            java.io.BufferedReader reader = new java.io.BufferedReader(
                    new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                JsonNode message = JsonText.MAPPER.readTree(line);
                if (message.path("id").asInt() == 2) {
                    answer = message;
                    break;
                }
            }
            assertThat(answer).isNotNull();
            JsonNode hooks = answer.at("/result/data/0/hooks");
            assertThat(hooks).hasSize(5);
            for (JsonNode hook : hooks) {
                assertThat(hook.get("trustStatus").asText()).as(hook.get("key").asText()).isEqualTo("trusted");
            }
        } finally {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Optional<Path> realCodex() {
        String explicit = System.getenv("BATON_TEST_CODEX");
        if (explicit != null && Files.isExecutable(Path.of(explicit))) {
            return Optional.of(Path.of(explicit));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "codex"))) {
                return Optional.of(Path.of(dir, "codex"));
            }
        }
        return Optional.empty();
    }
}
