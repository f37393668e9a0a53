package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.state.AuditEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The supervisor token is a file any process of the user can read; the sidecar refuses it from an agent's process.
 * Two stand-in agents (real processes) run their commands through the real wrapper; the commands read the token and
 * call the sidecar with curl, the way a blocked model would, detached from the agent or not. The person is this test's
 * own curl: not below any agent, in the sidecar's user namespace.
 */
class SupervisorFromAgentsTest extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";

    StandInAgent a;
    StandInAgent b;
    String endpoint;
    Path token;

    @BeforeEach
    void startAgents() throws Exception {
        a = StandInAgent.start(harness, "a", "aaaaaaaa-1111-4000-8000-000000000001");
        b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002");
        endpoint = harness.home().readEndpoint().orElseThrow();
        token = harness.home().supervisorTokenFile();
    }

    @AfterEach
    void stopAgents() {
        a.close();
        b.close();
    }

    private String forceRelease(String file) {
        return "curl -s -o /dev/null -w '%{http_code}' -X POST -H \"Authorization: Bearer $(cat '" + token + "')\""
                + " --data-binary '{\"file\":\"" + file + "\"}' http://" + endpoint + "/v1/locks/force-release";
    }

    private String endSession(String id) {
        return "curl -s -w ' %{http_code}' -X DELETE -H \"Authorization: Bearer $(cat '" + token + "')\" http://"
                + endpoint + "/v1/sessions/" + id;
    }

    @Test
    void aProcessDetachedFromAnAgentsCommandCannotForceReleaseAnotherSessionsFile() throws Exception {
        assertThat(a.bashWrapped("sed -i 's/original/by A/' " + CART).denied()).isFalse();
        String cart = harness.repo().path(CART).toRealPath().toString();
        Path go = dir.resolve("go");
        Path answer = dir.resolve("answer");

        // The detached job waits until the command that started it has ended (the test then creates "go"): its parent
        // is then init or a subreaper, and nothing of the agent is above it any more.
        StandInAgent.WrappedCall call = b.bashWrapped("setsid -f sh -c 'for i in $(seq 600); do [ -e " + go
                + " ] && break; sleep 0.05; done; " + forceRelease(cart).replace("'", "'\\''") + " > " + answer
                + ".part; mv " + answer + ".part " + answer + "'");
        assertThat(call.command().exit()).as(call.command().stderr()).isZero();
        Files.createFile(go);
        await().atMost(30, TimeUnit.SECONDS).until(() -> Files.exists(answer));

        assertThat(Files.readString(answer)).isEqualTo("403");
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
        assertThat(refusals()).singleElement().satisfies(entry -> assertThat(entry.reason())
                .startsWith("supervisor token used by an agent's process: pid ").contains("runs in user namespace")
                .contains("not the sidecar's"));

        assertThat(run(forceRelease(cart))).as("the person, from a process of their own").isEqualTo("200");
        assertThat(harness.holderOf(CART)).isEmpty();
    }

    @Test
    void anAgentsCommandCannotEndAnotherSessionWithTheSupervisorToken() throws Exception {
        assertThat(a.bashWrapped("git status").command().exit()).isZero();
        assertThat(harness.baton().sessions().find(a.sessionId())).isPresent();
        // Run by B's agent outside the wrapper (every wrapped command is in a namespace, refused as such): it is
        // still below B's agent process.
        assertThat(b.announce("true", "toolu_b_first").stdout()).doesNotContain("deny"); // B's session, on its process
        String answer = b.output(endSession(a.sessionId())).strip();

        assertThat(answer).endsWith(" 403").contains("is the supervisor's, a person's")
                .contains("runs below claude-code session bbbbbbbb").contains("agent pid " + b.pid());
        assertThat(harness.baton().sessions().find(a.sessionId())).isPresent();
        assertThat(refusals()).singleElement().satisfies(entry -> {
            assertThat(entry.sessionId()).isEqualTo(b.sessionId());
            assertThat(entry.reason()).contains("runs below");
        });

        assertThat(run(endSession(a.sessionId()))).endsWith(" 200");
        assertThat(harness.baton().sessions().find(a.sessionId())).isEmpty();
    }

    private static String run(String command) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(process.getInputStream().readAllBytes()).trim();
    }

    private List<AuditEntry> refusals() {
        return harness.baton().ledger().read(world -> harness.baton().ledger().store().auditSince(0, 1000))
                .stream().filter(entry -> entry.action().equals("impersonation-refused")).toList();
    }
}
