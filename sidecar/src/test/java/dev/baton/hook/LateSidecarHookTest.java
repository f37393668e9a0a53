package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.server.SidecarAdapters;
import dev.baton.session.ProcStat;
import dev.baton.session.Session;
import dev.baton.state.AuditEntry;
import io.javalin.config.RoutesConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar that answers a hook call only after the hook gave up on it, as on a busy machine during a cold start: the
 * call is held (in test code, before the hook endpoint) until the hook script has ended and so has the copy of it
 * that held the connection. The sidecar then handles a call from nobody: no process holds its end any more, so no
 * agent process is found for it, and the session it names is stored without one (untied). The agents are real
 * processes running the real hook script.
 */
class LateSidecarHookTest {

    private static final String SESSION = "9b1f4c2e-1111-4a2b-8c3d-4e5f6a7b8c9d";
    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";
    private static final String README = "README.md";
    /** The smallest budget the script takes: it gives up on a held call after 2 s. */
    private static final Map<String, String> GIVES_UP = Map.of("BATON_HOOK_TIMEOUT", "2", "BATON_HOOK_START_TIMEOUT", "2");
    /** How far apart the kernel's start instants and the sidecar's clock may be (ResumeRule's and TieRule's allowance). */
    private static final Duration START_ROUNDING = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    private final LateAnswer late = new LateAnswer();
    private HookHarness harness;

    @BeforeEach
    void startSidecarThatCanAnswerLate() throws Exception {
        harness = HookHarness.start(dir, baton -> {
            List<Consumer<RoutesConfig>> routes = new ArrayList<>(SidecarAdapters.of(baton));
            routes.add(late::register);
            return routes;
        });
    }

    @AfterEach
    void stopSidecar() {
        late.releaseAll();
        harness.close();
    }

    @Test
    void anAgentWhoseFirstEditGaveUpOnALateSidecarEditsOnceItAnswersAndAnImpostorStillCannot() throws Exception {
        try (StandInAgent agent = StandInAgent.start(harness, "claude", SESSION)) {
            Session untied = giveUpOnFirstEdit(agent);

            ScriptRun edit = agent.hook("claude", "PreToolUse", edit(SESSION, ORDER));

            assertThat(untied.process()).isNull();
            assertThat(edit.exit()).as(edit.stderr()).isZero();
            assertThat(edit.stdout()).as(edit.stderr()).isEmpty();
            assertThat(harness.holderOf(ORDER)).contains(SESSION);
            assertThat(harness.baton().sessions().get(SESSION).process().pid()).isEqualTo(agent.pid());

            try (StandInAgent impostor = StandInAgent.start(harness, "impostor", SESSION)) {
                ScriptRun taken = impostor.hook("claude", "PreToolUse", edit(SESSION, README));

                assertThat(taken.exit()).isEqualTo(2);
                assertThat(taken.stderr()).contains("does not come from that session's agent process (pid " + agent.pid());
                assertThat(harness.holderOf(README)).isEmpty();
            }
            assertThat(refusals()).singleElement().satisfies(entry -> assertThat(entry.sessionId()).isEqualTo(SESSION));
        }
    }

    @Test
    void anUntiedSessionGoesToItsOwnAgentNotToAnotherAgentNorToAProcessStartedAfterIt() throws Exception {
        try (StandInAgent other = StandInAgent.start(harness, "other", "session-other");
             StandInAgent agent = StandInAgent.start(harness, "claude", SESSION)) {
            assertThat(other.hook("claude", "PreToolUse", edit("session-other", CART)).stdout()).isEmpty();
            Session untied = giveUpOnFirstEdit(agent);

            // Another running agent names the untied session: it runs a session of its own.
            ScriptRun fromOther = other.hook("claude", "PreToolUse", edit(SESSION, ORDER));
            assertThat(fromOther.exit()).isEqualTo(2);
            assertThat(fromOther.stderr()).contains("runs session session-");

            // A fresh agent, outside every agent's tree and running nothing, but started after the session was first
            // heard of: not the agent whose call that was.
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    Instant.now().isAfter(untied.startedAt().plus(START_ROUNDING.multipliedBy(2))));
            try (StandInAgent later = StandInAgent.start(harness, "later", SESSION)) {
                ScriptRun fromLater = later.hook("claude", "PreToolUse", edit(SESSION, ORDER));
                assertThat(fromLater.exit()).isEqualTo(2);
                assertThat(fromLater.stderr()).contains("started after session " + Session.shortId(SESSION));
            }
            assertThat(harness.baton().sessions().get(SESSION).process()).isNull();
            assertThat(harness.holderOf(ORDER)).isEmpty();

            ScriptRun own = agent.hook("claude", "PreToolUse", edit(SESSION, ORDER));

            assertThat(own.stdout()).as(own.stderr()).isEmpty();
            assertThat(own.exit()).isZero();
            assertThat(harness.holderOf(ORDER)).contains(SESSION);
            assertThat(harness.baton().sessions().get(SESSION).process().pid()).isEqualTo(agent.pid());
            assertThat(refusals()).hasSize(2).allSatisfy(entry -> assertThat(entry.sessionId()).isEqualTo(SESSION));
        }
    }

    @Test
    void aHookCallThatGaveUpBeforeTheSidecarLookedAtItIsNotAuditedAsAnImpersonation() throws Exception {
        try (StandInAgent agent = StandInAgent.start(harness, "claude", SESSION)) {
            assertThat(agent.hook("claude", "PreToolUse", edit(SESSION, CART)).stdout()).isEmpty();
            assertThat(harness.baton().sessions().get(SESSION).process().pid()).isEqualTo(agent.pid());

            LateAnswer.Held held = late.holdNextCall();
            ScriptRun gaveUp = agent.hook("claude", "PreToolUse", edit(SESSION, ORDER), GIVES_UP);
            answerAfterTheCallerIsGone(held);

            assertThat(gaveUp.exit()).isEqualTo(2);
            assertThat(harness.holderOf(ORDER)).isEmpty();
            assertThat(refusals()).isEmpty();
            ScriptRun again = agent.hook("claude", "PreToolUse", edit(SESSION, ORDER));
            assertThat(again.stdout()).as(again.stderr()).isEmpty();
            assertThat(harness.holderOf(ORDER)).contains(SESSION);
        }
    }

    /** The agent's first edit, which the sidecar answers only once the hook gave up; the session it left stored. */
    private Session giveUpOnFirstEdit(StandInAgent agent) throws Exception {
        LateAnswer.Held held = late.holdNextCall();
        ScriptRun first = agent.hook("claude", "PreToolUse", edit(SESSION, CART), GIVES_UP);
        answerAfterTheCallerIsGone(held);
        assertThat(first.exit()).isEqualTo(2);
        assertThat(first.stderr()).contains("Baton could not check this edit");
        return harness.baton().sessions().find(SESSION).orElseThrow();
    }

    /** Lets the held call go on once the process that held its connection has ended, and waits for its handling. */
    private static void answerAfterTheCallerIsGone(LateAnswer.Held held) throws InterruptedException {
        assertThat(held.arrived.await(30, TimeUnit.SECONDS)).as("the hook's call reached the sidecar").isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcStat.of(held.callerPid).map(ProcStat::exited).orElse(true));
        held.release.countDown();
        assertThat(held.handled.await(30, TimeUnit.SECONDS)).as("the sidecar handled the held call").isTrue();
    }

    private String edit(String session, String file) throws Exception {
        return harness.sample("claude-pretooluse-edit.json").replace(HookHarness.CLAUDE_SESSION, session)
                .replace(harness.repo().path(CART).toString(), harness.repo().path(file).toString());
    }

    private List<AuditEntry> refusals() {
        return harness.baton().ledger().read(world -> harness.baton().ledger().store().auditSince(0, 1000))
                .stream().filter(entry -> entry.action().equals("impersonation-refused")).toList();
    }

    /** The test's seam: holds the next hook call before the endpoint sees it, and tells when it has been handled. */
    private static final class LateAnswer {

        private static final String HELD = "late-answer.held";
        private final AtomicReference<Held> next = new AtomicReference<>();
        private final List<Held> all = new ArrayList<>();

        /** One held call: {@code callerPid} is the hook's copy that holds the connection (its {@code pid} hint). */
        static final class Held {
            final CountDownLatch arrived = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final CountDownLatch handled = new CountDownLatch(1);
            volatile long callerPid;
        }

        synchronized Held holdNextCall() {
            Held held = new Held();
            all.add(held);
            next.set(held);
            return held;
        }

        synchronized void releaseAll() {
            all.forEach(held -> held.release.countDown());
        }

        void register(RoutesConfig routes) {
            routes.before("/v1/hooks", ctx -> {
                Held held = next.getAndSet(null);
                if (held != null) {
                    ctx.attribute(HELD, held);
                    held.callerPid = Long.parseLong(ctx.queryParam("pid"));
                    held.arrived.countDown();
                    held.release.await(60, TimeUnit.SECONDS);
                }
            });
            routes.after("/v1/hooks", ctx -> {
                Held held = ctx.attribute(HELD);
                if (held != null) {
                    held.handled.countDown();
                }
            });
        }
    }
}
