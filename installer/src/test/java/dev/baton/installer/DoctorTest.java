package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.Scope;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DoctorTest extends MachineFixture {

    HttpServer sidecar;

    @AfterEach
    void stopSidecar() {
        if (sidecar != null) {
            sidecar.stop(0);
        }
    }

    @Test
    void aCompleteInstallWithALiveSidecarIsAllGreen() throws Exception {
        startSidecar(200, "{\"status\":\"ok\",\"version\":\"0.1.0\"}");
        machine.install(Scope.USER);

        StringWriter out = new StringWriter();
        int exit = Doctor.report(doctor().run(), new PrintWriter(out));

        assertThat(out.toString()).doesNotContain("✘").contains("All checks passed.")
                .contains("✔ sidecar          answers on 127.0.0.1:" + sidecar.getAddress().getPort())
                .contains("✔ Claude hooks     all 8 events in " + machine.userSettings())
                .contains("✔ Copilot hooks    all 8 events in " + machine.home.resolve(".copilot/hooks/baton.json"))
                .contains("✔ Claude MCP       mcpServers.baton in " + machine.home.resolve(".claude.json"))
                .contains("✔ Copilot MCP      mcpServers.baton in " + machine.home.resolve(".copilot/mcp-config.json"))
                .contains("✔ Claude MCP run   initialize and tools/list answered: 1 tools")
                .contains("✔ Codex MCP run    initialize and tools/list answered: 1 tools");
        assertThat(exit).isZero();
    }

    @Test
    void theDoctorTriesTheShellGuardAndSaysHowEachAgentsShellCommandsAreGuarded() throws Exception {
        machine.install(Scope.USER);

        List<Check> checks = doctor().run();

        assertThat(checks).filteredOn(check -> check.subject().equals("shell guard")).singleElement()
                .satisfies(check -> assertThat(check.detail()).startsWith("agents' shell commands find the files other"
                        + " sessions hold read-only"));
        assertThat(checks).filteredOn(check -> check.subject().equals("Claude shell")).singleElement()
                .satisfies(check -> assertThat(check.status()).isEqualTo(Check.Status.OK));
        assertThat(checks).filteredOn(check -> check.subject().equals("Codex shell")).singleElement()
                .satisfies(check -> assertThat(check.detail()).contains("BASH_ENV"));

        ObjectNode settings = JsonText.parseObject(read(machine.userSettings()));
        ((ObjectNode) settings.get("env")).remove("CLAUDE_CODE_SHELL_PREFIX");
        write(machine.userSettings(), JsonText.render(settings));

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("Claude shell")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
                    assertThat(check.fix()).isEqualTo("run `baton install --claude` again");
                });
    }

    @Test
    void aMissingHookAndAMissingSidecarAreReportedWithFixes() throws Exception {
        machine.install(Scope.USER);
        ObjectNode settings = JsonText.parseObject(read(machine.userSettings()));
        ((ObjectNode) settings.get("hooks")).remove("Stop");
        write(machine.userSettings(), JsonText.render(settings));

        StringWriter out = new StringWriter();
        int exit = Doctor.report(doctor().run(), new PrintWriter(out));

        assertThat(out.toString())
                .contains("✘ sidecar          not running (no " + machine.layout().endpointFile() + ")\n"
                        + "    fix: start it with `baton serve`")
                .contains("✘ Claude hooks     " + machine.userSettings() + " lacks Baton's hook for Stop\n"
                        + "    fix: baton install --claude --scope user\n")
                .contains("2 problems found.");
        assertThat(exit).isEqualTo(1);
    }

    @Test
    void aClaudeEditHookThatDoesNotBlockOnFailureIsAProblemWithItsFix() throws Exception {
        startSidecar(200, "{\"status\":\"ok\",\"version\":\"0.1.0\"}");
        machine.install(Scope.USER);
        ObjectNode settings = JsonText.parseObject(read(machine.userSettings()));
        ((ObjectNode) settings.at("/hooks/PreToolUse/0/hooks/0")).remove("onFailure"); // as an older install wrote it
        write(machine.userSettings(), JsonText.render(settings));

        StringWriter out = new StringWriter();
        int exit = Doctor.report(doctor().run(), new PrintWriter(out));

        assertThat(out.toString())
                .contains("✘ Claude hooks     " + machine.userSettings() + ": Baton's PreToolUse hook lacks"
                        + " \"onFailure\": \"block\", so Claude Code runs an edit or command whose hook could not start"
                        + " or timed out\n    fix: baton install --claude --scope user\n")
                .contains("1 problem found.");
        assertThat(exit).isEqualTo(1);
        machine.install(Scope.USER);
        assertThat(Doctor.report(doctor().run(), new PrintWriter(new StringWriter()))).isZero();
    }

    @Test
    void aSidecarThatAnswersWithAnErrorIsAProblem() throws Exception {
        startSidecar(503, "{\"error\":{\"code\":\"STARTING\",\"message\":\"opening the database\"}}");
        machine.install(Scope.USER);

        List<Check> checks = doctor().run();

        assertThat(checks).filteredOn(check -> check.subject().equals("sidecar")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
                    assertThat(check.detail()).contains("answered HTTP 503");
                });
    }

    @Test
    void aPortWithNothingListeningIsReportedAsSuch() throws Exception {
        int freePort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            freePort = socket.getLocalPort();
        }
        write(machine.layout().endpointFile(), "127.0.0.1:" + freePort + "\n");

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("sidecar")).singleElement()
                .satisfies(check -> assertThat(check.detail()).isEqualTo("nothing listens on 127.0.0.1:" + freePort));
    }

    @Test
    void nothingInstalledReportsEachMissingPieceAndHowToInstallIt() throws Exception {
        Files.createDirectories(machine.home.resolve(".claude"));

        StringWriter out = new StringWriter();
        int exit = Doctor.report(doctor().run(), new PrintWriter(out));

        assertThat(out.toString())
                .contains("✘ BATON_HOME")
                .contains("✘ hook script      " + machine.layout().hookScript() + " is missing\n    fix: run `baton install`")
                .contains("✘ Claude hooks     no Claude Code config file holds Baton's hooks")
                .contains("✘ Claude MCP       no baton server registered")
                .contains("– Copilot CLI      not set up here");
        assertThat(exit).isEqualTo(1);
    }

    @Test
    void aBatonHomeWritableByOthersIsAProblem() throws Exception {
        machine.install(Scope.USER);
        Files.setPosixFilePermissions(machine.layout().batonHome(), PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("BATON_HOME")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
                    assertThat(check.detail()).contains("writable by other users").doesNotContain("chmod");
                    assertThat(check.fix()).contains("chmod 700 " + machine.layout().batonHome());
                });
    }

    @Test
    void aBatonHomeOfAnotherUserIsAProblemWhoseFixIsChownNotChmod() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "giving a directory to another user needs root");
        machine.install(Scope.USER);
        Path home = machine.layout().batonHome();
        Files.setOwner(home, home.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("BATON_HOME")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
                    assertThat(check.detail()).contains("belongs to nobody").doesNotContain("chown");
                    assertThat(check.fix()).contains("chown root " + home).doesNotContain("chmod");
                });
    }

    @Test
    void anMcpEntryOfAnEarlierBuildIsFlaggedWithTheInstallThatReplacesIt() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        Path claudeJson = machine.home.resolve(".claude.json");
        write(claudeJson, read(claudeJson).replaceFirst("\"type\" *: *\"stdio\"", "\"type\": \"http\", \"url\": \"http://127.0.0.1:7433/mcp\""));

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("Claude MCP")).singleElement()
                .satisfies(check -> {
                    assertThat(check.detail()).contains("does not run this install's baton-mcp as Baton's MCP server (type)");
                    assertThat(check.fix()).isEqualTo("baton install --claude --scope user");
                });
    }

    /** An install before baton-mcp ran the hook script as the MCP server: the install that replaces it is named. */
    @Test
    void anMcpEntryThatRunsTheHookScriptIsFlaggedWithTheInstallThatReplacesIt() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        Path claudeJson = machine.home.resolve(".claude.json");
        write(claudeJson, read(claudeJson).replace(machine.layout().mcpScript().toString(), machine.hookScript())
                .replaceFirst("\"args\" *: *\\[ *\\]", "\"args\": [\"claude\", \"Mcp\"]"));

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("Claude MCP")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
                    assertThat(check.detail()).contains("does not run this install's baton-mcp as Baton's MCP server (command)");
                    assertThat(check.fix()).isEqualTo("baton install --claude --scope user");
                });
    }

    /** The MCP server is started as the agent starts it; one that cannot reach the sidecar is a problem, with why. */
    @Test
    void anMcpServerThatCannotListBatonsToolsIsAProblemThatSaysWhy() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        Files.writeString(machine.layout().mcpScript(), """
                #!/usr/bin/env bash
                while IFS= read -r line; do
                  [[ $line == *'"id":2'* ]] && printf '%s\\n' '{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"Baton'"'"'s sidecar did not start within 20 s"}}'
                done
                """);

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("Claude MCP run")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.PROBLEM);
                    assertThat(check.detail()).isEqualTo("Baton's MCP server, started as Claude Code starts it, tools/list"
                            + " failed: Baton's sidecar did not start within 20 s");
                });
    }

    /** Codex gives an MCP server a few variables and those its entry names: the doctor's run gets no more. */
    @Test
    void codexsMcpServerIsProbedWithOnlyTheVariablesCodexPassesOn() throws Exception {
        machine.install(Scope.USER, Agents.CODEX);
        Path seen = machine.root.resolve("mcp-env");
        Files.writeString(machine.layout().mcpScript(), TestMachine.MCP_SERVER.replace(
                "# stand-in for the packaged MCP server", "env >" + seen));
        java.util.Map<String, String> env = new java.util.HashMap<>(java.util.Map.of("HOME", machine.home.toString(),
                "PATH", "/usr/bin:/bin", "BATON_HOME", machine.layout().batonHome().toString(),
                "BATON_PORT", "7999", "AWS_SECRET_ACCESS_KEY", "not for Baton"));

        List<Check> checks = new Doctor(machine.layout(), machine.project, Duration.ofSeconds(2), env).run();

        assertThat(checks).filteredOn(check -> check.subject().equals("Codex MCP run")).singleElement()
                .satisfies(check -> assertThat(check.status()).isEqualTo(Check.Status.OK));
        assertThat(read(seen)).contains("BATON_HOME=" + machine.layout().batonHome(), "BATON_PORT=7999", "HOME=")
                .doesNotContain("AWS_SECRET_ACCESS_KEY");
    }

    private Doctor doctor() {
        return new Doctor(machine.layout(), machine.project, Duration.ofSeconds(2));
    }

    private void startSidecar(int status, String body) throws Exception {
        sidecar = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        sidecar.createContext("/v1/health", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        sidecar.start();
        machine.layout().sidecarHome().prepare(); // made 0700, as a real sidecar makes it
        machine.layout().sidecarHome().writeEndpoint(sidecar.getAddress().getPort());
    }
}
