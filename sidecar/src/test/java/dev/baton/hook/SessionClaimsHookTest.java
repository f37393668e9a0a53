package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.state.AuditEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A second agent tries to claim what belongs to the first: a session inside it, its agent process, the fallback id
 * of a Copilot process, the id of a session that ended. Both agents are real processes that run the real hook script
 * (and curl from their own shells), as the agents do; what they claim is checked against the kernel's view.
 */
class SessionClaimsHookTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";

    @Test
    void aSessionThatNamesAnotherAgentsSessionAsItsParentIsRefusedAndCannotEditItsFiles() throws Exception {
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(a.hook("PreToolUse", edit("session-a", CART)).stdout()).isEmpty();

            String registered = b.output(curl("POST", "/v1/sessions", "{\"session_id\":\"fake-sub\",\"agent\":\"claude-code\","
                    + "\"parent_id\":\"session-a\"}"));
            ScriptRun edit = b.hook("PreToolUse", edit("fake-sub", CART));

            assertThat(registered).startsWith("401").contains("session session-a's agent");
            assertThat(edit.stdout()).contains("\"deny\"").contains("held by claude-code session session-");
            assertThat(harness.holderOf(CART)).contains("session-a");
            assertThat(harness.baton().sessions().find("fake-sub").map(Session::parentId)).isEmpty();
        }
    }

    @Test
    void aSubagentIdCannotBeRegisteredByAnyoneButItsParentsHooks() throws Exception {
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(a.hook("PreToolUse", edit("session-a", CART)).stdout()).isEmpty();

            String registered = b.output(curl("POST", "/v1/sessions", "{\"session_id\":\"session-a/agent-x\","
                    + "\"agent\":\"claude-code\",\"pid\":" + b.pid() + "}"));
            ScriptRun subagent = a.hook("PreToolUse", edit("session-a", ORDER).replace("\"session_id\"",
                    "\"agent_id\":\"agent-x\",\"agent_type\":\"general-purpose\",\"session_id\""));

            assertThat(registered).startsWith("400").contains("subagents' (PARENT/AGENT)");
            assertThat(subagent.stdout()).isEmpty();
            assertThat(harness.holderOf(ORDER)).contains("session-a/agent-x");
            assertThat(harness.baton().sessions().get("session-a/agent-x").parentId()).isEqualTo("session-a");
        }
    }

    @Test
    void aSessionOnAnotherAgentsProcessIsRefusedAndThatAgentsOwnCliStillFindsItsSession() throws Exception {
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a");
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(a.hook("PreToolUse", edit("session-a", CART)).stdout()).isEmpty();

            String registered = b.output(curl("POST", "/v1/sessions", "{\"session_id\":\"squatter\",\"agent\":\"claude-code\","
                    + "\"pid\":" + a.pid() + "}"));

            assertThat(registered).startsWith("403").contains("process " + a.pid() + " is not the caller");
            assertThat(harness.baton().sessions().list()).extracting(Session::id).containsExactly("session-a");
            assertThat(refusals()).singleElement().satisfies(entry ->
                    assertThat(entry.reason()).contains("registration on process " + a.pid()));
        }
    }

    @Test
    void copilotsFallbackIdCannotBeGuessedAndTakenFirst() throws Exception {
        try (StandInAgent copilot = StandInAgent.start(harness, "copilot", null);
             StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            ProcessHandle agent = ProcessHandle.of(copilot.pid()).orElseThrow();
            String guessed = "copilot-" + agent.pid() + "-" + agent.info().startInstant().orElseThrow().toEpochMilli();
            assertThat(b.hook("SessionStart", start(guessed)).stdout()).contains("Your Baton session is " + guessed);

            ScriptRun edit = copilot.hook("copilot", "preToolUse", harness.sample("copilot-pretooluse-edit-nosession.json"));

            assertThat(edit.exit()).as(edit.stderr()).isZero();
            Session session = harness.baton().sessions().get(harness.holderOf("README.md").orElseThrow());
            assertThat(session.id()).startsWith("copilot-").isNotEqualTo(guessed);
            assertThat(session.process().pid()).isEqualTo(copilot.pid());
        }
    }

    @Test
    void anEndedSessionsIdGoesToItsResumeNotToAnotherAgentThatSawItEnd() throws Exception {
        String resumable = "session-r";
        try (StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(b.hook("SessionStart", start("session-b")).exit()).isZero();
            try (StandInAgent a = StandInAgent.start(harness, "a", resumable)) {
                assertThat(a.hook("PreToolUse", edit(resumable, CART)).stdout()).isEmpty();
                assertThat(a.hook("SessionEnd", end(resumable)).exit()).isZero();
            }
            assertThat(harness.baton().sessions().find(resumable)).isEmpty();

            // B takes the ended id through its own hook, through the API from its shell, and from a fresh process it starts.
            ScriptRun fromHook = b.hook("SessionStart", start(resumable));
            String fromApi = b.output(curl("POST", "/v1/sessions", "{\"session_id\":\"" + resumable + "\","
                    + "\"agent\":\"claude-code\"}"));
            b.output("perl -e 'system(q{" + HookHarness.SCRIPT + " claude PreToolUse < " + payloadFile(b, resumable) + "})'");

            assertThat(fromHook.stdout()).doesNotContain("Baton session");
            assertThat(fromApi).startsWith("409").contains("names no agent process");
            assertThat(harness.baton().sessions().find(resumable)).isEmpty();
            assertThat(refusals()).hasSizeGreaterThanOrEqualTo(3).allSatisfy(entry ->
                    assertThat(entry.sessionId()).isEqualTo(resumable));

            // The user resumes the conversation: a new agent process, started after it ended.
            try (StandInAgent resumed = StandInAgent.start(harness, "a2", resumable)) {
                ScriptRun started = resumed.hook("SessionStart", start(resumable));
                ScriptRun edit = resumed.hook("PreToolUse", edit(resumable, ORDER));

                assertThat(started.stdout()).contains("Your Baton session is " + resumable);
                assertThat(edit.stdout()).as(edit.stderr()).isEmpty();
                assertThat(harness.holderOf(ORDER)).contains(resumable);
                assertThat(harness.baton().sessions().get(resumable).process().pid()).isEqualTo(resumed.pid());
            }
        }
    }

    @Test
    void aJobDetachedFromAnAgentsGuardedCommandCannotTakeUpAnEndedSessionsId() throws Exception {
        String resumable = "session-r";
        try (StandInAgent b = StandInAgent.start(harness, "b", "session-b");
             StandInAgent c = StandInAgent.start(harness, "c", "session-c")) {
            assertThat(c.hook("PreToolUse", edit("session-c", ORDER)).stdout()).isEmpty(); // B's commands are guarded
            try (StandInAgent a = StandInAgent.start(harness, "a", resumable)) {
                assertThat(a.hook("PreToolUse", edit(resumable, CART)).stdout()).isEmpty();
                assertThat(a.hook("SessionEnd", end(resumable)).exit()).isZero();
            }
            java.nio.file.Path payload = java.nio.file.Files.writeString(harness.dir().resolve("resume.json"), start(resumable));
            java.nio.file.Path go = harness.dir().resolve("go");
            java.nio.file.Path done = harness.dir().resolve("done");

            // Started after the session ended, detached, and run once B's command has returned: nothing of an agent is
            // above it any more, and it looks like the user's own `--resume` but for the namespace it cannot leave.
            StandInAgent.WrappedCall call = b.bashWrapped("setsid -f bash -c 'for i in $(seq 600); do [ -e " + go
                    + " ] && break; sleep 0.05; done; " + HookHarness.SCRIPT + " claude SessionStart < " + payload + " > "
                    + done + ".part 2>&1; mv " + done + ".part " + done + "'");
            assertThat(call.command().exit()).as(call.command().stderr()).isZero();
            java.nio.file.Files.createFile(go);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> java.nio.file.Files.exists(done));

            assertThat(java.nio.file.Files.readString(done)).doesNotContain("Your Baton session is " + resumable);
            assertThat(harness.baton().sessions().find(resumable)).isEmpty();
            assertThat(refusals()).singleElement().satisfies(entry -> assertThat(entry.reason())
                    .contains("runs in another user namespace than the sidecar's"));
        }
    }

    @Test
    void theAgentThatRanAnEndedSessionTakesItsIdUpAgain() throws Exception {
        try (StandInAgent a = StandInAgent.start(harness, "a", "session-a")) {
            assertThat(a.hook("SessionStart", start("session-a")).exit()).isZero();
            assertThat(a.hook("SessionEnd", end("session-a")).exit()).isZero();

            ScriptRun again = a.hook("PreToolUse", edit("session-a", CART));

            assertThat(again.stdout()).as(again.stderr()).isEmpty();
            assertThat(harness.holderOf(CART)).contains("session-a");
            assertThat(harness.baton().sessions().ended("session-a")).isEmpty();
        }
    }

    @Test
    void aSessionWhoseAgentDiedIsResumedByANewAgentButNotByAnotherRunningOne() throws Exception {
        try (StandInAgent b = StandInAgent.start(harness, "b", "session-b")) {
            assertThat(b.hook("SessionStart", start("session-b")).exit()).isZero();
            StandInAgent a = StandInAgent.start(harness, "a", "session-a");
            assertThat(a.hook("PreToolUse", edit("session-a", CART)).stdout()).isEmpty();
            ProcessIdentity died = harness.baton().sessions().get("session-a").process();
            a.close();
            ProcessHandle.of(died.pid()).ifPresent(handle -> handle.onExit().join());

            ScriptRun taken = b.hook("PreToolUse", edit("session-a", ORDER));
            assertThat(taken.exit()).isEqualTo(2);
            assertThat(harness.holderOf(ORDER)).isEmpty();

            try (StandInAgent resumed = StandInAgent.start(harness, "a2", "session-a")) {
                ScriptRun edit = resumed.hook("PreToolUse", edit("session-a", ORDER));

                assertThat(edit.stdout()).as(edit.stderr()).isEmpty();
                assertThat(harness.holderOf(ORDER)).contains("session-a");
                assertThat(harness.baton().sessions().get("session-a").process().pid()).isEqualTo(resumed.pid());
            }
        }
    }

    /** A curl from the agent's shell to the sidecar: prints the status, a space, and the body. */
    private String curl(String method, String path, String body) throws Exception {
        String endpoint = harness.home().readEndpoint().orElseThrow();
        String token = harness.home().readToken().orElseThrow();
        java.nio.file.Path answer = java.nio.file.Files.createTempFile(harness.dir(), "answer", ".json");
        return "curl -s -o '" + answer + "' -w '%{http_code} ' -X " + method + " -H 'Authorization: Bearer " + token + "'"
                + " -H 'Content-Type: application/json' --data-binary '" + body + "' http://" + endpoint + path
                + "; cat '" + answer + "'";
    }

    private String payloadFile(StandInAgent agent, String session) throws Exception {
        java.nio.file.Path file = harness.dir().resolve("claim-" + agent.pid() + ".json");
        java.nio.file.Files.writeString(file, edit(session, ORDER));
        return file.toString();
    }

    private String edit(String session, String file) throws Exception {
        return harness.sample("claude-pretooluse-edit.json").replace(HookHarness.CLAUDE_SESSION, session)
                .replace(harness.repo().path(CART).toString(), harness.repo().path(file).toString());
    }

    private String start(String session) throws Exception {
        return harness.sample("claude-sessionstart.json").replace(HookHarness.CLAUDE_SESSION, session);
    }

    private String end(String session) throws Exception {
        return harness.sample("claude-sessionend.json").replace(HookHarness.CLAUDE_SESSION, session);
    }

    private List<AuditEntry> refusals() {
        return harness.baton().ledger().read(world -> harness.baton().ledger().store().auditSince(0, 1000))
                .stream().filter(entry -> entry.action().equals("impersonation-refused")).toList();
    }
}
