package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.doctor.ProbeRun;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.program.ProgramSource;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hooks {@code baton install} writes for Claude Code, run as Claude Code runs them ({@code /bin/sh -c COMMAND},
 * the payload on stdin, the entry's timeout) with the real hook script and no sidecar to reach, and judged as Claude
 * Code 2.1.295 and later judge a hook run: exit 2 blocks the tool call; a hook that could not start, timed out or
 * exited with another code than 0 or 2 blocks it only under {@code "onFailure": "block"}, and otherwise lets it run.
 */
class ClaudeHookFailureTest extends MachineFixture {

    @BeforeEach
    void installWithThePackagedScript() throws Exception {
        assumeTrue(getClass().getClassLoader().getResource(HookScript.RESOURCE) != null,
                "the hook-scripts module does not ship " + HookScript.RESOURCE + " yet");
        new Installer(machine.layout(), HookScript.packaged(), new ProgramSource(machine.jar, ""),
                new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()))
                .install(machine.target(Scope.USER, Agents.CLAUDE), false, false);
    }

    @Test
    void anEditIsBlockedWhenTheSidecarIsUnreachableAndCannotBeStarted() throws Exception {
        ObjectNode hook = preToolUseHook();

        ClaudeVerdict verdict = runAsClaudeCode(hook, Map.of("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "2",
                "BATON_HOOK_START_TIMEOUT", "2"));

        assertThat(verdict.blocked()).as(verdict.toString()).isTrue();
        assertThat(verdict.run().err()).startsWith("Baton could not check this edit: its sidecar did not start within 2 s");
    }

    @Test
    void anEditIsBlockedWhenTheInstalledHookCannotEvenStart() throws Exception {
        ObjectNode hook = preToolUseHook();
        Files.delete(machine.layout().hookScript()); // as after a half-done uninstall, or a home on a volume not mounted

        ClaudeVerdict verdict = runAsClaudeCode(hook, Map.of());

        assertThat(verdict.run().exit()).isEqualTo(127);
        assertThat(verdict.blocked()).as(verdict.toString()).isTrue();
    }

    @Test
    void onlyTheToolEventsHookBlocksOnFailureWhereClaudeCodeHonoursIt() throws Exception {
        ObjectNode settings = JsonText.parseObject(read(machine.userSettings()));

        assertThat(preToolUseHook().path("onFailure").asText()).isEqualTo("block");
        for (String event : List.of("PostToolUse", "PostToolUseFailure", "PermissionDenied", "Stop", "SubagentStop",
                "SessionStart", "SessionEnd")) {
            assertThat(settings.at("/hooks/" + event + "/0/hooks/0").has("onFailure")).as(event).isFalse();
        }
    }

    /** Baton's PreToolUse hook entry as installed: the one that guards the edit and shell tools. */
    private ObjectNode preToolUseHook() throws Exception {
        JsonNode group = JsonText.parseObject(read(machine.userSettings())).at("/hooks/PreToolUse/0");
        assertThat(group.path("matcher").asText()).contains("Write").contains("Bash");
        return (ObjectNode) group.at("/hooks/0");
    }

    private ClaudeVerdict runAsClaudeCode(ObjectNode hook, Map<String, String> extra) throws Exception {
        Path batonHome = Files.createDirectories(temp.resolve("state/baton"));
        Path cwd = Files.createDirectories(temp.resolve("work/shop"));
        Map<String, String> env = new HashMap<>(Map.of("HOME", machine.home.toString(), "PATH", "/usr/bin:/bin",
                "BATON_HOME", batonHome.toString(), "CLAUDECODE", "1"));
        env.putAll(extra);
        String payload = ((HookProbe.Payloads) Agents.CLAUDE).edit("3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01", cwd,
                cwd.resolve("src/App.java"));
        ProbeRun run = ProbeRun.run(List.of("/bin/sh", "-c", hook.path("command").asText()), env, cwd,
                payload.getBytes(StandardCharsets.UTF_8));
        assertThat(run.timedOut()).as("the hook ran past the probe's limit").isFalse();
        return new ClaudeVerdict(run, hook.path("onFailure").asText(null));
    }

    /** How Claude Code decides on a PreToolUse command hook's run (exit 2 blocks; a failure blocks under onFailure). */
    private record ClaudeVerdict(ProbeRun run, String onFailure) {

        boolean blocked() {
            boolean failed = run.exit() != 0 && run.exit() != 2;
            return run.exit() == 2 || failed && "block".equals(onFailure);
        }
    }
}
