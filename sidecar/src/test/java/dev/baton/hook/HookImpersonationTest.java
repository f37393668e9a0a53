package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.state.AuditEntry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The real hook script run by two different agent processes (perl stands in for an agent: it is not a shell, so
 * the sidecar takes it for the agent above the hook). One names the other's session in its payloads.
 */
class HookImpersonationTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";

    @Test
    void anotherAgentsHookCannotEndTakeOrReleaseForASessionAndItsEditIsBlocked() throws Exception {
        String cart = harness.repo().path(CART).toString();
        String order = harness.repo().path(ORDER).toString();
        String edit = harness.sample("claude-pretooluse-edit.json");
        try (Agent victim = new Agent(harness); Agent impostor = new Agent(harness)) {
            editAndImpersonate(victim, impostor, cart, order, edit);
        }
    }

    private void editAndImpersonate(Agent victim, Agent impostor, String cart, String order, String edit) throws Exception {
        assertThat(victim.hook("PreToolUse", edit).exit()).isZero();
        assertThat(harness.holderOf(CART)).contains(CLAUDE_SESSION);

        ScriptRun end = impostor.hook("SessionEnd", harness.sample("claude-sessionend.json"));
        ScriptRun stop = impostor.hook("Stop", harness.sample("claude-stop.json"));
        ScriptRun take = impostor.hook("PreToolUse", edit.replace(cart, order));

        assertThat(end.exit()).isZero(); // not an edit: nothing to block, and nothing done
        assertThat(stop.exit()).isZero();
        assertThat(take.exit()).isEqualTo(2);
        assertThat(take.stderr()).contains("does not come from that session's agent process");
        assertThat(harness.holderOf(CART)).contains(CLAUDE_SESSION);
        assertThat(harness.holderOf(ORDER)).isEmpty();
        assertThat(refusals()).hasSize(3).allSatisfy(entry -> assertThat(entry.sessionId()).isEqualTo(CLAUDE_SESSION));

        String done = harness.sample("claude-posttooluse-write.json");
        assertThat(victim.hook("PostToolUse", done).exit()).isZero();
        ScriptRun ownStop = victim.hook("Stop", harness.sample("claude-stop.json"));
        assertThat(ownStop.silent()).as(ownStop.toString()).isTrue();
        assertThat(refusals()).as("the victim's own calls are not refused").hasSize(3);
        assertThat(harness.holderOf(CART)).isEmpty(); // its own turn end released its clean file
    }

    @Test
    void aSessionIsToldOnItsNextHookCallThatTheSupervisorTookItsFile() throws Exception {
        String edit = harness.sample("claude-pretooluse-edit.json");
        String cart = harness.repo().path(CART).toString();
        try (Agent victim = new Agent(harness)) {
            assertThat(victim.hook("PreToolUse", edit).exit()).isZero();
            String supervisor = harness.home().readSupervisorToken().orElseThrow();
            java.net.http.HttpResponse<String> freed = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + harness.home().readEndpoint().orElseThrow()
                                    + "/v1/locks/force-release"))
                            .header("Authorization", "Bearer " + supervisor).header("Content-Type", "application/json")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"file\":\"" + cart + "\",\"actor\":\"alice\"}"))
                            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(freed.statusCode()).as(freed.body()).isEqualTo(200);

            ScriptRun next = victim.hook("PreToolUse", edit.replace(cart, harness.repo().path(ORDER).toString()));

            assertThat(next.exit()).isZero();
            assertThat(next.stdout()).contains("re-read it before editing").contains("Cart.java")
                    .contains("supervisor (pid " + ProcessHandle.current().pid());
            assertThat(victim.hook("PreToolUse", edit.replace(cart, harness.repo().path(ORDER).toString())).stdout())
                    .doesNotContain("re-read"); // told once
        }
    }

    @Test
    void aCallThatNamesTheAgentsPidsAsItsOwnIsStillNotFromBelowTheAgent() throws Exception {
        String cart = harness.repo().path(CART).toString();
        String order = harness.repo().path(ORDER).toString();
        String edit = harness.sample("claude-pretooluse-edit.json");
        try (Agent victim = new Agent(harness)) {
            assertThat(victim.hook("PreToolUse", edit).exit()).isZero();
            long agent = victim.process.pid();

            // The pid and ppid hints name the victim's agent itself and its parent; the connection is this JVM's.
            java.net.http.HttpResponse<String> call = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + harness.home().readEndpoint().orElseThrow()
                                    + "/v1/hooks?agent=claude&event=PreToolUse&pid=" + agent + "&ppid=" + ProcessHandle.current().pid()))
                            .header("Authorization", "Bearer " + harness.home().readToken().orElseThrow())
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(edit.replace(cart, order)))
                            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());

            assertThat(call.statusCode()).as(call.body()).isEqualTo(403);
            assertThat(call.body()).contains("does not come from that session's agent process");
            assertThat(harness.holderOf(ORDER)).isEmpty();
            assertThat(refusals()).hasSize(1);
        }
    }

    private List<AuditEntry> refusals() {
        return harness.baton().ledger().read(world -> harness.baton().ledger().store().auditSince(0, 1000))
                .stream().filter(entry -> entry.action().equals("impersonation-refused")).toList();
    }

    @Test
    void aSessionStartCannotMoveALiveSessionToAnotherAgent() throws Exception {
        try (Agent victim = new Agent(harness); Agent impostor = new Agent(harness)) {
            assertThat(victim.hook("SessionStart", harness.sample("claude-sessionstart.json")).exit()).isZero();
            long victimPid = harness.baton().sessions().get(CLAUDE_SESSION).process().pid();

            ScriptRun run = impostor.hook("SessionStart", harness.sample("claude-sessionstart.json"));

            assertThat(run.stdout()).doesNotContain("Baton session");
            assertThat(harness.baton().sessions().get(CLAUDE_SESSION).process().pid()).isEqualTo(victimPid);
        }
    }

    /**
     * A stand-in agent: one long-lived perl process that runs the hook script as its child for each event it is
     * sent, as an agent runs its hooks.
     */
    private static final class Agent implements AutoCloseable {
        private static final String LOOP = "$|=1; while (my $l = <STDIN>) { chomp $l; my ($e, $in, $out, $err) = split / /, $l;"
                + " my $p = fork(); if ($p == 0) { open STDIN, '<', $in; open STDOUT, '>', $out; open STDERR, '>', $err;"
                + " exec($ARGV[0], 'claude', $e) or exit 127 } waitpid($p, 0); print(($? >> 8), \"\\n\"); }";
        private final HookHarness harness;
        private final Process process;
        private final BufferedReader answers;

        Agent(HookHarness harness) throws IOException {
            this.harness = harness;
            ProcessBuilder builder = new ProcessBuilder("perl", "-e", LOOP, HookHarness.SCRIPT.toString());
            builder.environment().put("BATON_HOME", harness.home().dir().toString());
            builder.environment().put("BATON_HOOK_TIMEOUT", "30");
            builder.environment().remove("BATON_FAIL_OPEN");
            this.process = builder.start();
            this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        }

        ScriptRun hook(String event, String payload) throws IOException {
            Path in = Files.createTempFile(harness.dir(), "payload", ".json");
            Path out = Files.createTempFile(harness.dir(), "stdout", ".txt");
            Path err = Files.createTempFile(harness.dir(), "stderr", ".txt");
            Files.writeString(in, payload);
            OutputStream commands = process.getOutputStream();
            commands.write((event + " " + in + " " + out + " " + err + "\n").getBytes(StandardCharsets.UTF_8));
            commands.flush();
            String exit = answers.readLine(); // the hook's own budget (30 s) bounds this wait
            if (exit == null) {
                throw new AssertionError("the stand-in agent died");
            }
            return new ScriptRun(Integer.parseInt(exit.trim()), Files.readString(out), Files.readString(err), Duration.ZERO);
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
