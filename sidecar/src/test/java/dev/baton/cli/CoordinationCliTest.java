package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import dev.baton.http.Json;
import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The coordination verbs of the {@code baton} command, run in-process against a real sidecar. */
class CoordinationCliTest {

    record Run(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return Json.mapper().readTree(out);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + out, e);
            }
        }
    }

    @TempDir Path dir;
    TestSidecar sidecar;
    Agent a;
    Agent b;
    String app;

    /** The agents' processes: children of this test, whose CLI also acts as the supervisor and so must be neither. */
    final ChildProcess agentA = ChildProcess.sleeping();
    final ChildProcess agentB = ChildProcess.sleeping();

    @BeforeEach
    void start() throws IOException {
        sidecar = TestSidecar.in(dir).manualClock().start();
        System.setProperty(SidecarCommands.HOME_PROPERTY, sidecar.home().toString());
        a = sidecar.registerAgent("session-a", agentA.pid());
        b = sidecar.registerAgent("session-b", agentB.pid());
        app = sidecar.file("src/App.java");
        sidecar.acquire(a, "src/App.java");
    }

    @AfterEach
    void stop() {
        System.clearProperty(SidecarCommands.HOME_PROPERTY);
        sidecar.close();
        agentA.close();
        agentB.close();
    }

    static Run baton(String... args) {
        CommandLine line = BatonCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        line.setOut(new PrintWriter(out, true));
        line.setErr(new PrintWriter(err, true));
        int code = line.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static String[] as(Agent agent, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--session", agent.id(), "--key", agent.key()));
        return all.toArray(String[]::new);
    }

    String openRequestId() {
        return sidecar.baton().negotiations().pendingRequests().get(0).negotiationId();
    }

    @Test
    void negotiateThenDeferThenReleaseFromTheCommandLine() {
        Run asked = baton(as(b, "negotiate", app, "--reason", "the login bug is here", "--urgent"));
        assertThat(asked.exitCode()).as(asked.err()).isZero();
        String id = openRequestId();
        assertThat(asked.out()).contains(id, "has not answered the urgent request for src/App.java");

        Run listed = baton(as(a, "negotiations"));
        assertThat(listed.out()).contains("pending", id, "session-b -> session-a");
        Run fromAPersonsTerminal = baton("negotiations");
        assertThat(fromAPersonsTerminal.out()).contains("every session's requests (this terminal belongs to no agent")
                .contains("pending", id, "session-b -> session-a");

        Run deferred = baton(as(a, "respond", id, "defer", "--eta", "5", "--reason", "saving first"));
        assertThat(deferred.exitCode()).as(deferred.err()).isZero();
        assertThat(deferred.out()).contains("keeps src/App.java for up to 5 more min: \"saving first\"");

        Run waited = baton(as(b, "negotiate", app, "--reason", "still need it", "--wait", "1"));
        assertThat(waited.exitCode()).isEqualTo(1);
        assertThat(waited.out()).contains("You had asked already");

        Run released = baton(as(a, "respond", id, "release", "--json"));
        assertThat(released.json().path("negotiation").path("status").asText()).isEqualTo("released");
        assertThat(sidecar.baton().locks().holderOf(app)).isEmpty();
    }

    @Test
    void refusalsAreOneClearLineOnStderr() {
        String id = sidecar.baton().negotiations().negotiate(new dev.baton.negotiation.NegotiationRequest(b.id(), app, "x",
                null, null)).negotiation().id();

        Run eta = baton(as(a, "respond", id, "defer", "--eta", "61", "--reason", "later"));
        assertThat(eta.exitCode()).isEqualTo(2);
        assertThat(eta.err()).startsWith("baton: eta_minutes must be between 1 and 60");

        Run wrongKey = baton("respond", id, "release", "--session", a.id(), "--key", b.key());
        assertThat(wrongKey.exitCode()).isEqualTo(2);
        assertThat(wrongKey.err()).contains("the key does not match session session-");

        Run free = baton(as(b, "negotiate", sidecar.file("src/Other.java"), "--reason", "x"));
        assertThat(free.err()).contains("is not held by anyone");

        assertThat(sidecar.baton().negotiations().view(id).status()).isEqualTo("pending");
        assertThat(sidecar.baton().locks().holderOf(app).orElseThrow().session()).isEqualTo(a.id());
    }

    @Test
    void theRequesterMayForceReleaseOnlyAfterTheTimeoutAndOthersNever() {
        Agent c = sidecar.registerAgent("session-c");
        baton(as(b, "negotiate", app, "--reason", "blocked on this", "--urgent"));

        Run early = baton(as(b, "force-release", app));
        assertThat(early.exitCode()).isEqualTo(2);
        assertThat(early.err()).contains("once it times out");

        sidecar.clock().advance(Duration.ofMinutes(5));
        assertThat(baton("negotiations").out()).contains("timeout-eligible")
                .contains("as the supervisor: `baton force-release " + app + " --supervisor` frees it now");
        assertThat(baton(as(b, "negotiations")).out()).doesNotContain("as the supervisor");
        Run stranger = baton(as(c, "force-release", app));
        assertThat(stranger.exitCode()).isEqualTo(2);
        assertThat(stranger.err()).contains("has no open negotiation");

        Run forced = baton(as(b, "force-release", app));
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("was released (forced)");
        assertThat(sidecar.baton().locks().holderOf(app)).isEmpty();
    }

    @Test
    void aSupervisorForceReleaseNeedsNoNegotiationAndIsAuditedAsSuch() {
        Run forced = baton("force-release", app, "--supervisor", "--actor", "alice");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("(it was held by session session-a)");
        Run history = baton("history", app, "--json");
        assertThat(history.json().path("entries").get(0).path("actor").asText())
                .startsWith("supervisor (pid " + ProcessHandle.current().pid());

        assertThat(baton("force-release", app, "--supervisor", "--session", b.id()).err()).contains("acts for no session");
    }

    @Test
    void messagesAreSentListedAndMarkedRead() {
        Run sent = baton(as(b, "msg", "send", "session-a", "please", "look", "at", "the", "build"));
        assertThat(sent.exitCode()).as(sent.err()).isZero();
        assertThat(sent.out()).contains("sent to session session-a");
        Run broadcast = baton(as(b, "msg", "send", "*", "lunch"));
        assertThat(broadcast.exitCode()).as(broadcast.err()).isZero();

        Run inbox = baton(as(a, "msg", "inbox"));
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        assertThat(inbox.out()).contains("#1", "from claude-code session-b", "please look at the build", "[unread]",
                "(to everyone)", "page 1 of 1 (2 message(s); 2 unread in the inbox)");

        Run supervised = baton("msg", "inbox", "--supervisor");
        assertThat(supervised.exitCode()).as(supervised.err()).isZero();
        assertThat(supervised.out()).contains("#1  ").contains("session-b -> session-a  [unread]")
                .contains("    please look at the build").contains("session-b -> *").contains("    lunch");
        assertThat(baton(as(a, "msg", "inbox", "--supervisor")).err()).contains("leave out --session and --key");

        assertThat(baton(as(a, "msg", "read", "1")).out()).contains("marked read: 1 message(s)");
        assertThat(baton(as(a, "msg", "inbox", "--unread", "--json")).json().path("total").asInt()).isEqualTo(1);
        assertThat(baton(as(a, "msg", "read", "--all")).out()).contains("marked read: 1 message(s)");
        assertThat(baton(as(a, "msg", "inbox", "--unread")).out()).contains("no unread messages");
        assertThat(baton(as(a, "msg", "inbox", "--from", "session-b", "--since", "1h")).out()).contains("2 message(s)");

        Run tooLong = baton(as(b, "msg", "send", "session-a", "z".repeat(4001)));
        assertThat(tooLong.exitCode()).isEqualTo(2);
        assertThat(tooLong.err()).contains("the limit is 4000");
        assertThat(baton(as(a, "msg", "read")).err()).contains("name the messages to mark read, or --all");
        assertThat(baton(as(a, "msg", "inbox", "--since", "last week")).err()).contains("--since takes");
    }

    @Test
    void plansArePublishedAndRead() {
        Run set = baton(as(a, "plan", "set", "--goal", "refactor auth", "--task", "extract TokenStore"));
        assertThat(set.exitCode()).as(set.err()).isZero();
        assertThat(set.out()).contains("goal: refactor auth", "now:  extract TokenStore");

        assertThat(baton("plan", "show", "session-a").out()).contains("refactor auth");
        assertThat(baton("plan", "list").out()).contains("session-a", "refactor auth", "session-b", "(no plan published)");
        assertThat(baton(as(a, "plan", "set", "--goal", "g".repeat(301))).err()).contains("the limit is 300");
        assertThat(baton(as(a, "plan", "set")).err()).contains("give --goal, --task, or both");
    }

    @Test
    void fromAnAgentsShellTheSessionIsFoundByAncestryWithoutAKey() throws Exception {
        // The agent: a shell that, once its session is registered, runs `baton negotiate` as its child.
        List<String> command = new ArrayList<>(List.of("bash", "-c", "read -r _; \"$@\"; echo \"exit $?\"", "agent"));
        command.addAll(new BatonCli(sidecar.home(), dir).builder("negotiate", app, "--reason", "asked from the agent's shell")
                .command());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("BATON_HOME", sidecar.home().toString());
        Process agent = builder.start();
        try {
            Agent ancestor = sidecar.registerAgent("session-ancestor", agent.pid());
            try (OutputStream in = agent.getOutputStream()) {
                in.write("go\n".getBytes(StandardCharsets.US_ASCII));
            }
            String output = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(output).as(output).endsWith("exit 0\n");
            assertThat(sidecar.baton().negotiations().pendingRequests()).singleElement()
                    .satisfies(edge -> assertThat(edge.requester()).isEqualTo(ancestor.id()));
        } finally {
            agent.destroyForcibly();
        }

        try (ChildProcess other = ChildProcess.sleeping()) {
            Agent elsewhere = sidecar.registerAgent("session-elsewhere", other.pid());
            Run claimed = baton("msg", "send", "session-a", "hi", "--session", elsewhere.id());
            assertThat(claimed.exitCode()).isEqualTo(2);
            assertThat(claimed.err()).contains("was not started by session session-elsewhere's agent");
            assertThat(sidecar.get("/v1/messages?session_id=" + a.id(), a.proof()).body().path("total").asInt()).isZero();
        }
    }

    @Test
    void theCliFindsTheSidecarThroughTheHomeOverride() {
        assertThat(Map.of("status", baton("status").exitCode())).containsEntry("status", 0);
    }
}
