package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CopilotHooksInstallTest extends MachineFixture {

    @Test
    void projectScopeWritesBatonsHookFileWithTheConfigKeyAsSecondArgument() throws Exception {
        machine.install(Scope.PROJECT, Agent.COPILOT);

        assertThat(read(machine.project.resolve(".github/hooks/baton.json"))).isEqualTo("""
                {
                  "version": 1,
                  "hooks": {
                    "preToolUse": [
                      {
                        "type": "command",
                        "matcher": "edit|create|str_replace_editor|apply_patch",
                        "bash": "%1$s copilot preToolUse",
                        "timeoutSec": 10
                      }
                    ],
                    "postToolUse": [
                      {
                        "type": "command",
                        "matcher": "edit|create|str_replace_editor|apply_patch",
                        "bash": "%1$s copilot postToolUse",
                        "timeoutSec": 10
                      }
                    ],
                    "sessionStart": [
                      {
                        "type": "command",
                        "bash": "%1$s copilot sessionStart",
                        "timeoutSec": 10
                      }
                    ],
                    "sessionEnd": [
                      {
                        "type": "command",
                        "bash": "%1$s copilot sessionEnd",
                        "timeoutSec": 10
                      }
                    ],
                    "agentStop": [
                      {
                        "type": "command",
                        "bash": "%1$s copilot agentStop",
                        "timeoutSec": 10
                      }
                    ]
                  }
                }
                """.formatted(machine.hookScript()));
    }

    @Test
    void userScopeWritesIntoTheCopilotHomeHooksDirectory() throws Exception {
        machine.env.put("COPILOT_HOME", machine.root.resolve("copilot-home").toString());

        machine.install(Scope.USER, Agent.COPILOT);

        assertThat(machine.root.resolve("copilot-home/hooks/baton.json")).exists();
        assertThat(machine.project.resolve(".github")).doesNotExist();
    }

    @Test
    void otherHookFilesInTheDirectoryAreLeftAlone() throws Exception {
        Path theirs = write(machine.project.resolve(".github/hooks/audit.json"),
                "{\"version\":1,\"hooks\":{\"preToolUse\":[{\"type\":\"command\",\"bash\":\"./audit.sh\"}]}}");

        machine.install(Scope.PROJECT, Agent.COPILOT);
        machine.uninstall(Scope.PROJECT, Agent.COPILOT);

        assertThat(read(theirs)).isEqualTo("{\"version\":1,\"hooks\":{\"preToolUse\":[{\"type\":\"command\",\"bash\":\"./audit.sh\"}]}}");
        assertThat(machine.project.resolve(".github/hooks/baton.json")).doesNotExist();
    }

    @Test
    void secondInstallDoesNotRewriteTheHookFile() throws Exception {
        machine.install(Scope.PROJECT, Agent.COPILOT);
        Path file = machine.project.resolve(".github/hooks/baton.json");
        FileTime past = FileTime.from(Instant.parse("2024-05-06T07:08:09Z"));
        Files.setLastModifiedTime(file, past);

        machine.install(Scope.PROJECT, Agent.COPILOT);

        assertThat(Files.getLastModifiedTime(file)).isEqualTo(past);
        assertThat(file.resolveSibling("baton.json.baton-backup")).doesNotExist();
    }

    @Test
    void aCorruptedBatonHookFileIsSimplyRewritten() throws Exception {
        Path file = write(machine.project.resolve(".github/hooks/baton.json"), "{ truncated");

        machine.install(Scope.PROJECT, Agent.COPILOT);

        assertThat(CopilotHooks.missingEvents(JsonText.parseObject(read(file)))).isEmpty();
    }
}
