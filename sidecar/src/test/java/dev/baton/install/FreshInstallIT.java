package dev.baton.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journey of a new user: `baton install` on a machine where no sidecar ever ran, then the agent's first edit.
 * An integration test (Failsafe): install copies the packaged {@code baton.jar}, which exists only after {@code package}.
 */
class FreshInstallIT {

    @TempDir
    Path temp;

    private FreshMachine machine;

    @BeforeEach
    void freshMachine() throws Exception {
        machine = new FreshMachine(temp);
    }

    @AfterEach
    void stopTheSidecarTheHookStarted() throws Exception {
        machine.close();
    }

    @Test
    void theFirstClaudeEditRightAfterInstallIsAllowedAndStartsTheSidecarThoughBatonIsNotOnPath() throws Exception {
        FreshMachine.Result install = machine.install("--claude");
        assertThat(install.exit()).as(install.err()).isZero();
        assertThat(machine.batonHome().endpointFile()).doesNotExist();
        String command = machine.json(machine.home.resolve(".claude/settings.json"))
                .at("/hooks/PreToolUse/0/hooks/0/command").asText();

        FreshMachine.Result edit = machine.runHook(command, machine.sample("claude-pretooluse-edit.json"));

        assertThat(edit.silent()).as("exit %d, stdout %s, stderr %s, log %s", edit.exit(), edit.out(), edit.err(),
                machine.log()).isTrue();
        assertThat(machine.batonHome().readEndpointPort()).contains(machine.port);
    }

    @Test
    void aTokenFileWithoutAFinalNewlineStillLetsTheHookThrough() throws Exception {
        BatonHome home = machine.batonHome();
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of)) {
            String token = home.readToken().orElseThrow();
            home.writeAtomically(home.tokenFile(), token); // as an older installer wrote it
            machine.env.put("BATON_HOOK_TIMEOUT", "20");
            machine.env.put("BATON_BIN", "/bin/false"); // a second sidecar must not be what makes it work

            FreshMachine.Result edit = machine.runHook(
                    FreshMachine.hookScript() + " claude PreToolUse", machine.sample("claude-pretooluse-edit.json"));

            assertThat(edit.silent()).as("exit %d, stdout %s, stderr %s", edit.exit(), edit.out(), edit.err()).isTrue();
            assertThat(Files.readString(home.tokenFile())).doesNotEndWith("\n");
        }
    }

    @Test
    void doctorPassesAfterAFreshInstallAndFailsWhenTheHookCannotReachTheSidecar() throws Exception {
        assertThat(machine.install("--claude").exit()).isZero();

        FreshMachine.Result healthy = machine.doctor("--project", machine.repo.root().toString());

        assertThat(healthy.out()).as(healthy.out()).contains("✔ Claude hook run")
                .contains("✔ Claude MCP run   initialize and tools/list answered: 11 tools").contains("All checks passed.");
        assertThat(healthy.exit()).isZero();
        BatonHome home = machine.batonHome();
        home.writeAtomically(home.tokenFile(), "0".repeat(64) + "\n"); // not the running sidecar's token

        FreshMachine.Result broken = machine.doctor("--project", machine.repo.root().toString());

        assertThat(broken.exit()).as(broken.out()).isEqualTo(1);
        assertThat(broken.out()).contains("✘ Claude hook run").contains("did not allow a probe edit")
                .contains("HTTP 401")
                .contains("✘ Claude MCP run   Baton's MCP server, started as Claude Code starts it, initialize failed:"
                        + " Baton's sidecar refused the MCP request (HTTP 401)");
    }

    @Test
    void underCopilotTheClaudeHookIsAQuickNoOpWhenCopilotHasBatonsOwnHooks() throws Exception {
        assertThat(machine.install("--claude", "--copilot", "--scope", "project", "--project",
                machine.repo.root().toString()).exit()).isZero();
        String command = machine.json(machine.repo.root().resolve(".claude/settings.json"))
                .at("/hooks/PreToolUse/0/hooks/0/command").asText();

        // Copilot CLI runs the project's Claude hooks too, with this payload shape and without CLAUDECODE.
        FreshMachine.Result underCopilot = machine.runHook(command, machine.sample("copilot-pascal-pretooluse-edit.json"));

        assertThat(underCopilot.silent()).isTrue();
        assertThat(machine.batonHome().endpointFile()).doesNotExist(); // it did not even start a sidecar

        machine.env.put("CLAUDECODE", "1");
        FreshMachine.Result underClaude = machine.runHook(command, machine.sample("claude-pretooluse-edit.json"));
        assertThat(underClaude.silent()).as(underClaude.err()).isTrue();
        assertThat(machine.batonHome().endpointFile()).exists();
    }
}
