package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.resource;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.GroupedHooks;
import dev.baton.agent.claude.ClaudeCodeWiring;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ClaudeSettingsInstallTest extends MachineFixture {

    @Test
    void freshInstallRegistersEveryClaudeEventWithItsToolMatcherAndTheAbsoluteScriptPath() throws Exception {
        machine.installer().install(machine.target(Scope.USER, Agents.CLAUDE), false, true, false);

        ObjectNode settings = JsonText.parseObject(read(machine.userSettings()));
        assertThat(fieldNames(settings)).containsExactly("hooks", "env");
        assertThat(settings.at("/env/CLAUDE_CODE_SHELL_PREFIX").asText())
                .isEqualTo(machine.layout().shellWrapper().toString());
        assertThat(machine.layout().shellWrapper()).isExecutable().isNotEqualTo(machine.layout().hookScript());
        assertThat(Files.isSymbolicLink(machine.layout().shellWrapper())).isFalse();
        assertThat(fieldNames(settings.get("hooks"))).containsExactly("PreToolUse", "PostToolUse",
                "PostToolUseFailure", "PermissionDenied", "Stop", "SubagentStop", "SessionStart", "SessionEnd");
        for (String event : List.of("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied")) {
            JsonNode group = settings.at("/hooks/" + event + "/0");
            assertThat(group.get("matcher").asText()).isEqualTo("Edit|Write|MultiEdit|NotebookEdit|Bash|PowerShell");
            assertThat(group.at("/hooks/0/command").asText()).isEqualTo(machine.hookScript() + " claude " + event);
            assertThat(group.at("/hooks/0/timeout").asInt()).isEqualTo(30);
            assertThat(group.at("/hooks/0/onFailure").asText(null)).as(event)
                    .isEqualTo(event.equals("PreToolUse") ? "block" : null);
        }
        for (String event : List.of("Stop", "SubagentStop", "SessionStart", "SessionEnd")) {
            JsonNode group = settings.at("/hooks/" + event + "/0");
            assertThat(group.has("matcher")).as(event).isFalse();
            assertThat(group.at("/hooks/0/command").asText()).isEqualTo(machine.hookScript() + " claude " + event);
            assertThat(group.at("/hooks/0/timeout").asInt()).isEqualTo(30);
        }
        assertThat(read(machine.userSettings())).startsWith("{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n");
    }

    /** Older installs linked baton-shell to the hook script and put a separate baton-guard beside it. */
    @Test
    void installOverAnOlderOneMakesTheWrapperAProgramOfItsOwnAndRemovesTheOldGuard() throws Exception {
        Path wrapper = machine.layout().shellWrapper();
        Path oldGuard = machine.layout().hookScript().resolveSibling(HookScript.OLD_GUARD);
        Files.createDirectories(wrapper.getParent());
        Files.writeString(machine.layout().hookScript(), "#!/bin/bash\n# an older hook script\n");
        Files.createSymbolicLink(wrapper, machine.layout().hookScript().getFileName());
        Files.writeString(oldGuard, "#!/usr/bin/perl\n# an older guard\n");

        machine.installer().install(machine.target(Scope.USER, Agents.CLAUDE), false, true, false);

        assertThat(Files.isSymbolicLink(wrapper)).isFalse();
        assertThat(Files.readAllBytes(wrapper)).isEqualTo(HookScript.packaged().companions().get(HookScript.SHELL_WRAPPER));
        assertThat(oldGuard).doesNotExist();
        assertThat(Files.readString(machine.layout().hookScript())).doesNotContain("an older hook script");
    }

    @Test
    void installAllowsBatonsMcpToolsUnlessToldNotTo() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        Path project = machine.project.resolve(".claude/settings.json");
        machine.installer().install(machine.target(Scope.PROJECT, Agents.CLAUDE), false, true, false);

        assertThat(JsonText.parseObject(read(machine.userSettings())).at("/permissions/allow").toString())
                .isEqualTo("[\"mcp__baton__*\"]");
        assertThat(JsonText.parseObject(read(project)).has("permissions")).isFalse();
        machine.uninstall(Scope.USER, Agents.CLAUDE);
        assertThat(machine.userSettings()).doesNotExist();
    }

    @Test
    void installIntoExistingSettingsKeepsEveryOtherKeyHookAndLine() throws Exception {
        String original = resource("claude-settings.json");
        write(machine.userSettings(), original);

        machine.install(Scope.USER, Agents.CLAUDE);

        String installed = read(machine.userSettings());
        ObjectNode before = JsonText.parseObject(original);
        ObjectNode after = JsonText.parseObject(installed);
        for (String key : List.of("$schema", "model", "statusLine", "cleanupPeriodDays", "includeCoAuthoredBy")) {
            assertThat(after.get(key)).as(key).isEqualTo(before.get(key));
        }
        ObjectNode env = ((ObjectNode) before.get("env")).deepCopy().put("CLAUDE_CODE_SHELL_PREFIX",
                machine.layout().shellWrapper().toString());
        assertThat(after.get("env")).isEqualTo(env);
        assertThat(fieldNames(after)).containsExactlyElementsOf(fieldNames(before));
        assertThat(fieldNames(after.get("hooks")))
                .containsExactly("PreToolUse", "PostToolUse", "Notification", "PostToolUseFailure", "PermissionDenied",
                        "Stop", "SubagentStop", "SessionStart", "SessionEnd");
        assertThat(after.at("/permissions/allow").get(after.at("/permissions/allow").size() - 1).asText())
                .isEqualTo("mcp__baton__*");
        assertThat(after.at("/hooks/PreToolUse/0")).isEqualTo(before.at("/hooks/PreToolUse/0"));
        assertThat(after.at("/hooks/PreToolUse/1/hooks/0/command").asText())
                .isEqualTo(machine.hookScript() + " claude PreToolUse");
        assertThat(after.at("/hooks/PostToolUse/0")).isEqualTo(before.at("/hooks/PostToolUse/0"));
        assertThat(after.at("/hooks/Notification")).isEqualTo(before.at("/hooks/Notification"));
        assertThat(linesWithoutCommas(installed)).containsSubsequence(linesWithoutCommas(original));
        assertThat(read(machine.userSettings().resolveSibling("settings.json.baton-backup"))).isEqualTo(original);
    }

    @Test
    void secondInstallLeavesTheFileByteIdenticalAndUntouched() throws Exception {
        write(machine.userSettings(), resource("claude-settings.json"));
        machine.install(Scope.USER, Agents.CLAUDE);
        byte[] first = Files.readAllBytes(machine.userSettings());
        FileTime past = FileTime.from(Instant.parse("2024-01-02T03:04:05Z"));
        Files.setLastModifiedTime(machine.userSettings(), past);

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(Files.readAllBytes(machine.userSettings())).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(machine.userSettings())).isEqualTo(past);
        assertThat(machine.out()).containsPattern("unchanged +" + Pattern.quote(machine.userSettings().toString()) + "\n");
    }

    @Test
    void uninstallRestoresTheOriginalBytesExactly() throws Exception {
        String original = resource("claude-settings.json");
        write(machine.userSettings(), original);

        machine.install(Scope.USER, Agents.CLAUDE);
        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(machine.userSettings())).isEqualTo(original);
        assertThat(machine.userSettings().resolveSibling("settings.json.baton-backup")).doesNotExist();
    }

    @Test
    void uninstallRestoresAHandFormattedFileWithoutFinalNewline() throws Exception {
        String original = resource("claude-settings-hand-edited.json");
        write(machine.userSettings(), original);

        machine.install(Scope.USER, Agents.CLAUDE);
        assertThat(read(machine.userSettings())).contains("\"feedbackSurveyRate\" : 0.10").endsWith("}");
        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(machine.userSettings())).isEqualTo(original);
    }

    @Test
    void uninstallAfterTheUserEditedTheFileRemovesOnlyBatonsHooks() throws Exception {
        write(machine.userSettings(), resource("claude-settings.json"));
        machine.install(Scope.USER, Agents.CLAUDE);
        ObjectNode edited = JsonText.parseObject(read(machine.userSettings()));
        edited.put("model", "sonnet");
        write(machine.userSettings(), JsonText.render(edited));

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        ObjectNode expected = JsonText.parseObject(resource("claude-settings.json"));
        expected.put("model", "sonnet");
        assertThat(JsonText.parseObject(read(machine.userSettings()))).isEqualTo(expected);
        assertThat(read(machine.userSettings())).doesNotContain(HookCommand.MARKER);
    }

    @Test
    void uninstallDeletesASettingsFileThatInstallCreated() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(machine.userSettings()).doesNotExist();
    }

    @Test
    void reinstallKeepsThePristineBackupAndReplacesAStaleBatonHookInPlace() throws Exception {
        String original = resource("claude-settings.json");
        write(machine.userSettings(), original);
        machine.install(Scope.USER, Agents.CLAUDE);
        String moved = read(machine.userSettings()).replace(machine.hookScript(), "/opt/old-baton/baton-hook");
        write(machine.userSettings(), moved);

        machine.install(Scope.USER, Agents.CLAUDE);

        JsonNode after = JsonText.parseObject(read(machine.userSettings()));
        assertThat(after.at("/hooks/PreToolUse")).hasSize(2);
        assertThat(after.at("/hooks/PreToolUse/1/hooks/0/command").asText())
                .isEqualTo(machine.hookScript() + " claude PreToolUse");
        assertThat(read(machine.userSettings())).doesNotContain("/opt/old-baton");
        assertThat(read(machine.userSettings().resolveSibling("settings.json.baton-backup"))).isEqualTo(original);
    }

    @Test
    void projectAndLocalScopesWriteTheProjectsSettingsFiles() throws Exception {
        machine.install(Scope.PROJECT, Agents.CLAUDE);
        machine.install(Scope.LOCAL, Agents.CLAUDE);

        assertThat(GroupedHooks.missingEvents(JsonText.parseObject(read(machine.project.resolve(".claude/settings.json"))), ClaudeCodeWiring.EVENTS))
                .isEmpty();
        assertThat(GroupedHooks.missingEvents(JsonText.parseObject(read(machine.project.resolve(".claude/settings.local.json"))), ClaudeCodeWiring.EVENTS))
                .isEmpty();
        assertThat(machine.userSettings()).doesNotExist();
    }

    @Test
    void installKeepsTheFilesPermissions() throws Exception {
        write(machine.userSettings(), resource("claude-settings.json"));
        Files.setPosixFilePermissions(machine.userSettings(), PosixFilePermissions.fromString("rw-------"));

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(machine.userSettings())))
                .isEqualTo("rw-------");
    }

    @Test
    void installThroughASymlinkedSettingsFileEditsItsTarget() throws Exception {
        Path dotfiles = write(machine.root.resolve("dotfiles/claude-settings.json"), resource("claude-settings.json"));
        Files.createDirectories(machine.userSettings().getParent());
        Files.createSymbolicLink(machine.userSettings(), dotfiles);

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(Files.isSymbolicLink(machine.userSettings())).isTrue();
        assertThat(read(dotfiles)).contains(machine.hookScript() + " claude Stop");
    }

    @Test
    void aCommentedSettingsFileIsRefusedSinceClaudeCodeDoesNotLoadItEither() throws Exception {
        // Claude Code 2.1.332 on this file: "These settings did not load … settings.json: Invalid or malformed JSON".
        String commented = "{\n  // my model\n  \"model\": \"opus\"\n}\n";
        write(machine.userSettings(), commented);
        var before = machine.allFiles();

        assertThatThrownBy(() -> machine.install(Scope.USER, Agents.CLAUDE))
                .isInstanceOf(InstallerException.class)
                .hasMessage("Refusing to edit " + machine.userSettings() + ": it has a comment at line 2, column 3, and"
                        + " Claude Code reads this file as plain JSON, without comments or trailing commas, so Claude Code"
                        + " does not load it as it is either. Take its comments and trailing commas out, then run the"
                        + " command again; nothing was changed.");
        assertThat(machine.allFiles()).isEqualTo(before);
    }

    @Test
    void aTrailingCommaInClaudeSettingsIsNamedAsSuch() throws Exception {
        write(machine.userSettings(), "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\",]\n  }\n}\n");

        assertThatThrownBy(() -> machine.install(Scope.USER, Agents.CLAUDE))
                .hasMessageContaining(": it has a trailing comma at line 3, column ")
                .hasMessageContaining("Claude Code does not load it as it is either");
    }

    @Test
    void unparseableSettingsAreRefusedAndLeftUntouched() throws Exception {
        String broken = "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\" \"Bash(cat)\"]\n  }\n}\n";
        write(machine.userSettings(), broken);

        assertThatThrownBy(() -> machine.install(Scope.USER))
                .isInstanceOf(InstallerException.class)
                .hasMessageContaining(machine.userSettings().toString())
                .hasMessageContaining("not a valid JSON object")
                .hasMessageContaining("line 3");

        assertThat(read(machine.userSettings())).isEqualTo(broken);
        assertThat(machine.userSettings().resolveSibling("settings.json.baton-backup")).doesNotExist();
        assertThat(machine.layout().hookScript()).doesNotExist();
        assertThat(machine.home.resolve(".copilot")).doesNotExist();
    }

    @Test
    void settingsWhoseHooksKeyIsNotAnObjectAreRefused() throws Exception {
        String odd = "{\n  \"hooks\": []\n}\n";
        write(machine.userSettings(), odd);

        assertThatThrownBy(() -> machine.install(Scope.USER, Agents.CLAUDE))
                .hasMessageContaining(machine.userSettings().toString())
                .hasMessageContaining("\"hooks\" is an array, expected an object");
        assertThat(read(machine.userSettings())).isEqualTo(odd);
    }

    @Test
    void aSettingsFileHoldingAJsonArrayIsRefused() throws Exception {
        write(machine.userSettings(), "[]\n");

        assertThatThrownBy(() -> machine.install(Scope.USER, Agents.CLAUDE))
                .hasMessageContaining("expected a JSON object but found an array");
    }

    @Test
    void aShellPrefixOfTheUsersOwnIsKeptForBatonsWrapperToRunCommandsThroughAndComesBackOnUninstall() throws Exception {
        String original = "{\n  \"env\": {\n    \"CLAUDE_CODE_SHELL_PREFIX\": \"/usr/local/bin/audit-log -q\"\n  }\n}\n";
        write(machine.userSettings(), original);

        machine.install(Scope.USER, Agents.CLAUDE);

        ObjectNode installed = JsonText.parseObject(read(machine.userSettings()));
        assertThat(installed.at("/env/CLAUDE_CODE_SHELL_PREFIX").asText())
                .isEqualTo(machine.layout().shellWrapper().toString());
        assertThat(installed.at("/env/BATON_NEXT_SHELL_PREFIX").asText()).isEqualTo("/usr/local/bin/audit-log -q");
        machine.install(Scope.USER, Agents.CLAUDE);
        assertThat(JsonText.parseObject(read(machine.userSettings())).at("/env/BATON_NEXT_SHELL_PREFIX").asText())
                .as("a second install does not take Baton's own prefix for the user's").isEqualTo("/usr/local/bin/audit-log -q");

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        assertThat(read(machine.userSettings())).isEqualTo(original);
    }

    @Test
    void theHookScriptWithShellOptionAnEarlierInstallWroteIsReplacedNotKeptAsTheUsersPrefix() throws Exception {
        write(machine.userSettings(), "{\n  \"env\": {\n    \"CLAUDE_CODE_SHELL_PREFIX\": \"" + machine.hookScript()
                + " --shell\"\n  }\n}\n");

        machine.install(Scope.USER, Agents.CLAUDE);

        ObjectNode installed = JsonText.parseObject(read(machine.userSettings()));
        assertThat(installed.at("/env/CLAUDE_CODE_SHELL_PREFIX").asText())
                .isEqualTo(machine.layout().shellWrapper().toString());
        assertThat(installed.at("/env").has("BATON_NEXT_SHELL_PREFIX")).isFalse();
    }

    @Test
    void theShellPrefixGoesWithTheHooksWhenTheUserChangedTheFileMeanwhile() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        ObjectNode edited = JsonText.parseObject(read(machine.userSettings()));
        edited.put("model", "opus");
        write(machine.userSettings(), JsonText.render(edited));

        machine.uninstall(Scope.USER, Agents.CLAUDE);

        ObjectNode after = JsonText.parseObject(read(machine.userSettings()));
        assertThat(fieldNames(after)).containsExactly("model");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> linesWithoutCommas(String text) {
        return Arrays.stream(text.split("\n")).map(line -> line.endsWith(",") ? line.substring(0, line.length() - 1) : line)
                .toList();
    }
}
