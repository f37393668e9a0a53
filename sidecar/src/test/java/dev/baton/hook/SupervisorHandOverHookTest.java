package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.lock.ReleaseReason;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import org.junit.jupiter.api.Test;

/**
 * A session whose files the supervisor took (force-release, end-session) hears of it on its next hook call through
 * the real script, once, and is told to re-read the files before editing them again.
 */
class SupervisorHandOverHookTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";
    /** The audit actor the dashboard's supervisor routes record (http.Supervisor): its name and its process. */
    private static final String SUPERVISOR = "supervisor dashboard (pid 4242 java on /dev/pts/3)";

    private String edit(String file) throws Exception {
        return harness.sample("claude-pretooluse-edit.json").replace(CART, file);
    }

    @Test
    void afterTheDashboardForceReleasesAFileItsFormerHolderIsToldOnceOnItsNextHookCall() throws Exception {
        harness.run("claude", "PreToolUse", edit(CART));
        String cart = harness.lockOf(CART).orElseThrow().file();

        harness.baton().locks().forceRelease(cart, SUPERVISOR);
        ScriptRun next = harness.run("claude", "PreToolUse", edit(ORDER));
        ScriptRun after = harness.run("claude", "PreToolUse", edit(ORDER));

        String context = next.json().at("/hookSpecificOutput/additionalContext").asText();
        assertThat(context).contains("the " + SUPERVISOR + " released " + CART + " at ")
                .contains("re-read it before editing");
        assertThat(after.silent()).as("told once: %s", after.stdout()).isTrue();
    }

    @Test
    void afterTheDashboardEndsASessionItsNextHookCallNamesEveryFileItLost() throws Exception {
        harness.run("claude", "PreToolUse", edit(CART));
        harness.run("claude", "PreToolUse", edit(ORDER));

        harness.baton().ledger().write(tx -> {
            Session session = tx.world().find(SessionRows.SESSIONS, CLAUDE_SESSION).orElseThrow();
            return harness.baton().locks().endSession(tx, session, ReleaseReason.SESSION_ENDED, SUPERVISOR);
        });
        ScriptRun next = harness.run("claude", "PreToolUse", edit(CART));

        String context = next.json().at("/hookSpecificOutput/additionalContext").asText();
        assertThat(context).contains("the " + SUPERVISOR + " ended this session at ")
                .contains(CART).contains(ORDER).contains("re-read them before editing");
        assertThat(harness.holderOf(CART)).as("the edit takes the file again").contains(CLAUDE_SESSION);
    }

    @Test
    void aSessionReleasingItsOwnFilesIsToldNothing() throws Exception {
        harness.run("claude", "PreToolUse", edit(CART));
        String cart = harness.lockOf(CART).orElseThrow().file();

        harness.baton().locks().forceRelease(cart, CLAUDE_SESSION);
        ScriptRun next = harness.run("claude", "PreToolUse", edit(ORDER));

        assertThat(next.silent()).as(next.stdout()).isTrue();
    }
}
