package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.home.BatonHome;
import dev.baton.state.AuditEntry;
import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import dev.baton.support.TestSidecar;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process of the same user, holding the bearer token, tries to act for a session it did not start. Agents
 * and impostors are real processes: the victim's agent a sleeping child, the impostor a curl of its own.
 */
class ImpersonationTest {

    @TempDir Path home;

    @Test
    void aPidInAHeaderIsNoProofForAnyAgentRoute() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); ChildProcess agent = ChildProcess.sleeping()) {
            sidecar.register("victim", "claude-code", agent.pid());
            sidecar.register("other", "cli", null);
            sidecar.postAs("victim", "/v1/locks/acquire", Map.of("session_id", "victim", "files", List.of("/r/x")));
            sidecar.postAs("other", "/v1/messages", Map.of("session_id", "other", "to", "victim", "text", "private"));
            String start = ProcessHandle.of(agent.pid()).orElseThrow().info().startInstant().orElseThrow().toString();

            for (List<String> forged : List.<List<String>>of(List.of(), List.of("-H", "X-Baton-Caller-Start: " + start))) {
                List<String> asVictim = new ArrayList<>(List.of("-H", "X-Baton-Caller-Pid: " + agent.pid()));
                asVictim.addAll(forged);
                assertThat(curl(sidecar, "POST", "/v1/locks/release", "{\"session_id\":\"victim\",\"all\":true}", asVictim))
                        .startsWith("401");
                assertThat(curl(sidecar, "POST", "/v1/locks/acquire", "{\"session_id\":\"victim\",\"files\":[\"/r/y\"]}", asVictim))
                        .startsWith("401");
                assertThat(curl(sidecar, "GET", "/v1/messages?session_id=victim", null, asVictim)).startsWith("401");
                assertThat(curl(sidecar, "POST", "/v1/messages", "{\"session_id\":\"victim\",\"to\":\"*\",\"text\":\"forged\"}",
                        asVictim)).startsWith("401");
                assertThat(curl(sidecar, "POST", "/v1/plans", "{\"session_id\":\"victim\",\"goal\":\"forged\"}", asVictim))
                        .startsWith("401");
            }

            assertThat(sidecar.get("/v1/locks").body().path("locks")).singleElement()
                    .satisfies(lock -> assertThat(lock.path("file").asText()).isEqualTo("/r/x"));
            assertThat(sidecar.postAs("victim", "/v1/messages/read", Map.of("session_id", "victim", "all", true)).status())
                    .isLessThan(300); // its own call with its key still works
        }
    }

    @Test
    void aProcessTheAgentStartedActsForItsSessionWithoutAKey() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            // The agent: a shell that, once told, runs curl (its child) to release everything of its session.
            Process agent = new ProcessBuilder("bash", "-c", "read -r _; curl -s -o /dev/null -w '%{http_code}'"
                    + " -H \"Authorization: Bearer $1\" -H 'Content-Type: application/json'"
                    + " -d '{\"session_id\":\"mine\",\"all\":true}' \"$2/v1/locks/release\"; read -r _",
                    "agent", sidecar.token(), sidecar.base()).start();
            try {
                sidecar.register("mine", "claude-code", agent.pid());
                sidecar.postAs("mine", "/v1/locks/acquire", Map.of("session_id", "mine", "files", List.of("/r/x")));

                try (OutputStream in = agent.getOutputStream()) {
                    in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                    byte[] status = agent.getInputStream().readNBytes(3);
                    assertThat(new String(status, StandardCharsets.US_ASCII)).isEqualTo("200");
                }
                assertThat(sidecar.get("/v1/locks").body().path("locks")).isEmpty();
            } finally {
                agent.destroyForcibly();
            }
        }
    }

    @Test
    void endingAnotherSessionOrForceReleasingItsFileNeedsTheSupervisor() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); ChildProcess agent = ChildProcess.sleeping()) {
            sidecar.register("victim", "claude-code", agent.pid());
            sidecar.postAs("victim", "/v1/locks/acquire", Map.of("session_id", "victim", "files", List.of("/r/x")));

            assertThat(curl(sidecar, "DELETE", "/v1/sessions/victim?actor=dashboard", null, List.of())).startsWith("401");
            assertThat(curl(sidecar, "POST", "/v1/locks/force-release", "{\"file\":\"/r/x\",\"actor\":\"supervisor:me\"}", List.of()))
                    .startsWith("403");
            assertThat(sidecar.get("/v1/locks").body().path("locks")).hasSize(1);

            String supervisor = new BatonHome(home).readSupervisorToken().orElseThrow();
            String freed = curlWithToken(sidecar, supervisor, "POST", "/v1/locks/force-release",
                    "{\"file\":\"/r/x\",\"actor\":\"alice\"}", List.of());
            assertThat(freed).startsWith("200").contains("\"previous_holder\":\"victim\"");
            assertThat(curlWithToken(sidecar, supervisor, "DELETE", "/v1/sessions/victim", null, List.of())).startsWith("200");

            List<AuditEntry> forced = sidecar.sidecar().baton().ledger().read(world ->
                    sidecar.sidecar().baton().ledger().store().history("/r/x", 10));
            assertThat(forced.get(0).actor()).startsWith("supervisor (pid ").contains("curl").doesNotContain("alice");
        }
    }

    @Test
    void aLiveSessionsIdCannotBeRegisteredAgainForAnotherProcess() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); ChildProcess agent = ChildProcess.sleeping();
             ChildProcess impostor = ChildProcess.sleeping()) {
            sidecar.register("victim", "claude-code", agent.pid());

            String reply = curl(sidecar, "POST", "/v1/sessions",
                    "{\"session_id\":\"victim\",\"agent\":\"claude-code\",\"pid\":" + impostor.pid() + "}", List.of());

            assertThat(reply).matches("(?s)40[139].*");
            assertThat(sidecar.get("/v1/sessions/victim").body().path("pid").asLong()).isEqualTo(agent.pid());
        }
    }

    @Test
    void aHeartbeatForAnotherSessionNeedsItsProof() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); ChildProcess agent = ChildProcess.sleeping()) {
            sidecar.register("victim", "claude-code", agent.pid());
            String before = sidecar.get("/v1/sessions/victim").body().path("last_heartbeat").asText();

            String forged = curl(sidecar, "POST", "/v1/sessions/victim/heartbeat", "{}", List.of());

            assertThat(forged).startsWith("401");
            assertThat(sidecar.get("/v1/sessions/victim").body().path("last_heartbeat").asText()).isEqualTo(before);
            assertThat(sidecar.postAs("victim", "/v1/sessions/victim/heartbeat", Map.of()).status()).isEqualTo(200);
        }
    }

    @Test
    void aNamedLockIsTakenAndReleasedOnlyByItsOwnProcess() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            long self = ProcessHandle.current().pid();
            assertThat(sidecar.post("/v1/named-locks/acquire", Map.of("name", "deploy", "pid", self)).body()
                    .path("acquired").asBoolean()).isTrue();

            // curl is a process of its own: not the holder, and not the process that started it.
            String released = curl(sidecar, "POST", "/v1/named-locks/release", "{\"name\":\"deploy\",\"pid\":" + self + "}",
                    List.of());
            String forInit = curl(sidecar, "POST", "/v1/named-locks/acquire", "{\"name\":\"nightly\",\"pid\":1}", List.of());
            String index = curl(sidecar, "POST", "/v1/named-locks/acquire",
                    "{\"name\":\"git-index:/home/dev/shop\",\"pid\":1}", List.of());

            assertThat(released).startsWith("403").contains("not the caller");
            assertThat(forInit).startsWith("403").contains("process 1 is not the caller");
            assertThat(index).startsWith("400").contains("are Baton's own");
            assertThat(sidecar.get("/v1/named-locks").body().path("named_locks").findValuesAsText("name"))
                    .containsExactly("deploy");
            assertThat(sidecar.post("/v1/named-locks/release", Map.of("name", "deploy", "pid", self)).body()
                    .path("released").asBoolean()).isTrue();
        }
    }

    @Test
    void aRegistrationClaimsOnlyWhatTheKernelShows() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); ChildProcess agent = ChildProcess.sleeping()) {
            String start = ProcessHandle.of(agent.pid()).orElseThrow().info().startInstant().orElseThrow()
                    .minusSeconds(3600).toString();

            String onAnother = curl(sidecar, "POST", "/v1/sessions",
                    "{\"session_id\":\"mine\",\"agent\":\"claude-code\",\"pid\":" + agent.pid() + "}", List.of());
            String wrongStart = sidecar.post("/v1/sessions", Map.of("session_id", "mine", "agent", "claude-code",
                    "pid", agent.pid(), "pid_start", start)).toString();

            assertThat(onAnother).startsWith("403").contains("is not the caller");
            assertThat(wrongStart).contains("400").contains("not at " + start);
            assertThat(sidecar.get("/v1/sessions").body().path("sessions")).isEmpty();
        }
    }

    @Test
    void theCliRefusesSupervisorFromInsideAnAgentsProcessTree() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            BatonCli cli = new BatonCli(home, home);
            List<String> command = new ArrayList<>(List.of("bash", "-c", "read -r _; \"$@\"; echo \"exit $?\"", "agent"));
            command.addAll(cli.builder("force-release", "/r/x", "--supervisor").command());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("BATON_HOME", home.toString());
            Process agent = builder.start();
            try {
                sidecar.register("agent", "claude-code", agent.pid());
                sidecar.postAs("agent", "/v1/locks/acquire", Map.of("session_id", "agent", "files", List.of("/r/x")));
                try (OutputStream in = agent.getOutputStream()) {
                    in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                }
                String output = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

                assertThat(output).contains("--supervisor is refused here").contains("session agent").contains("exit 2");
                assertThat(sidecar.get("/v1/locks").body().path("locks")).hasSize(1);
            } finally {
                agent.destroyForcibly();
            }
        }
    }

    @Test
    void aPathWithANewlineCannotForgeALineInTheLockListing() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            TestSidecar.Reply reply = sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a",
                    "files", List.of("/r/x\n/r/y is held by claude-code session victim (pid 1, alive)", "/r/\u001b[2Jz")));

            assertThat(reply.status()).isEqualTo(400);
            assertThat(reply.body().path("error").path("message").asText()).contains("control character").contains("\\u000a")
                    .doesNotContain("\n");
            assertThat(sidecar.get("/v1/locks").body().path("locks")).isEmpty();
        }
    }

    /** Runs curl as a process of its own; returns "STATUS BODY". */
    static String curl(TestSidecar sidecar, String method, String path, String body, List<String> headers) throws Exception {
        return curlWithToken(sidecar, sidecar.token(), method, path, body, headers);
    }

    static String curlWithToken(TestSidecar sidecar, String token, String method, String path, String body,
                                List<String> headers) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-s", "-X", method, "-w", "%{http_code}",
                "-o", "/dev/stderr", "-H", "Authorization: Bearer " + token, "-H", "Content-Type: application/json"));
        command.addAll(headers);
        if (body != null) {
            command.addAll(List.of("--data-binary", body));
        }
        command.add(sidecar.base() + path);
        Process curl = new ProcessBuilder(command).start();
        if (!curl.waitFor(30, TimeUnit.SECONDS)) {
            curl.destroyForcibly();
            throw new IOException("curl did not finish");
        }
        return new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8) + " "
                + new String(curl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    }

}
