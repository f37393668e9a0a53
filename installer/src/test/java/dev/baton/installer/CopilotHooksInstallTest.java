package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.copilot.CopilotHooks;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopilotHooksInstallTest extends MachineFixture {

    @Test
    void projectScopeWritesBatonsHookFileWithTheConfigKeyAsSecondArgument() throws Exception {
        machine.install(Scope.PROJECT, Agents.COPILOT);

        JsonNode document = JsonText.parseObject(read(machine.project.resolve(".github/hooks/baton.json")));
        assertThat(document.get("version").asInt()).isEqualTo(1);
        List<String> events = new java.util.ArrayList<>();
        document.get("hooks").fieldNames().forEachRemaining(events::add);
        assertThat(events).containsExactly("preToolUse", "postToolUse", "postToolUseFailure", "errorOccurred",
                "agentStop", "subagentStop", "sessionStart", "sessionEnd");
        for (String event : events) {
            JsonNode entry = document.at("/hooks/" + event + "/0");
            assertThat(entry.get("type").asText()).isEqualTo("command");
            assertThat(entry.get("bash").asText()).isEqualTo(machine.hookScript() + " copilot " + event);
            boolean toolEvent = event.endsWith("ToolUse") || event.endsWith("ToolUseFailure");
            assertThat(entry.has("matcher")).as(event).isEqualTo(toolEvent);
            if (toolEvent) {
                assertThat(entry.get("matcher").asText()).isEqualTo("edit|create|str_replace_editor|apply_patch|write|bash|shell");
            }
        }
    }

    @Test
    void userScopeWritesIntoTheCopilotHomeHooksDirectory() throws Exception {
        machine.env.put("COPILOT_HOME", machine.root.resolve("copilot-home").toString());

        machine.install(Scope.USER, Agents.COPILOT);

        assertThat(machine.root.resolve("copilot-home/hooks/baton.json")).exists();
        assertThat(machine.project.resolve(".github")).doesNotExist();
    }

    @Test
    void otherHookFilesInTheDirectoryAreLeftAlone() throws Exception {
        Path theirs = write(machine.project.resolve(".github/hooks/audit.json"),
                "{\"version\":1,\"hooks\":{\"preToolUse\":[{\"type\":\"command\",\"bash\":\"./audit.sh\"}]}}");

        machine.install(Scope.PROJECT, Agents.COPILOT);
        machine.uninstall(Scope.PROJECT, Agents.COPILOT);

        assertThat(read(theirs)).isEqualTo("{\"version\":1,\"hooks\":{\"preToolUse\":[{\"type\":\"command\",\"bash\":\"./audit.sh\"}]}}");
        assertThat(machine.project.resolve(".github/hooks/baton.json")).doesNotExist();
    }

    @Test
    void uninstallLeavesNoEmptyHooksDirectoryBehind() throws Exception {
        write(machine.home.resolve(".copilot/config.json"), "{}\n");

        machine.install(Scope.USER, Agents.COPILOT);
        machine.install(Scope.PROJECT, Agents.COPILOT);
        machine.uninstall(Scope.USER, Agents.COPILOT);
        machine.uninstall(Scope.PROJECT, Agents.COPILOT);

        assertThat(machine.home.resolve(".copilot/hooks")).doesNotExist();
        assertThat(machine.home.resolve(".copilot/config.json")).exists();
        assertThat(machine.project.resolve(".github")).doesNotExist();
        assertThat(machine.project).isDirectory();
        assertThat(machine.out()).contains("deleted           " + machine.home.resolve(".copilot/hooks") + "  (empty directory)");
    }

    @Test
    void secondInstallDoesNotRewriteTheHookFile() throws Exception {
        machine.install(Scope.PROJECT, Agents.COPILOT);
        Path file = machine.project.resolve(".github/hooks/baton.json");
        FileTime past = FileTime.from(Instant.parse("2024-05-06T07:08:09Z"));
        Files.setLastModifiedTime(file, past);

        machine.install(Scope.PROJECT, Agents.COPILOT);

        assertThat(Files.getLastModifiedTime(file)).isEqualTo(past);
        assertThat(file.resolveSibling("baton.json.baton-backup")).doesNotExist();
    }

    @Test
    void aCorruptedBatonHookFileIsSimplyRewritten() throws Exception {
        Path file = write(machine.project.resolve(".github/hooks/baton.json"), "{ truncated");

        machine.install(Scope.PROJECT, Agents.COPILOT);

        assertThat(CopilotHooks.missingEvents(JsonText.parseObject(read(file)))).isEmpty();
    }
}
