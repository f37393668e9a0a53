package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.state.AuditEntry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A holder whose process ended with its change still in a file: the session that takes the file next is told whose
 * uncommitted change it carries, once, in the answer that lets its edit through, and the audit trail says so. Real
 * stand-in agents (the first one killed), a real repository, the real hook.
 */
class LeftOverWorkHookTest extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";
    static final String ORDER = "src/main/java/shop/Order.java";

    private StandInAgent holderThatDies() throws Exception {
        StandInAgent a = StandInAgent.start(harness, "a", "aaaaaaaa-1111-4000-8000-000000000001");
        assertThat(a.write(CART, "half done by A\n").stdout()).doesNotContain("deny");
        assertThat(a.bash("true").denied()).isFalse();
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
        long pid = a.pid();
        a.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        return a;
    }

    private List<AuditEntry> leftOver() {
        return harness.baton().ledger().store().auditSince(0, 10_000).stream()
                .filter(entry -> entry.action().equals("left-over-work")).toList();
    }

    @Test
    void theNextEditorOfAFileAnExitedHolderLeftChangedIsToldWhoseChangeItCarries() throws Exception {
        StandInAgent a = holderThatDies();
        try (StandInAgent b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002")) {
            ScriptRun first = b.writeStarts(CART, "by B\n", "toolu_b1");
            ScriptRun again = b.writeStarts(CART, "by B\n", "toolu_b2");

            String context = first.json().at("/hookSpecificOutput/additionalContext").asText();
            assertThat(first.json().at("/hookSpecificOutput/permissionDecision").isMissingNode()).isTrue();
            assertThat(context).contains("Baton: " + CART + " still carries the uncommitted changes of claude-code session"
                    + " aaaaaaaa, which ended at ").contains("review them with `git diff -- " + CART + "`");
            assertThat(again.stdout()).as("told once").doesNotContain("still carries");
            assertThat(harness.holderOf(CART)).contains(b.sessionId());
            assertThat(leftOver()).singleElement().satisfies(entry -> {
                assertThat(entry.sessionId()).isEqualTo(b.sessionId());
                assertThat(entry.actor()).isEqualTo(a.sessionId());
                assertThat(entry.reason()).startsWith("uncommitted changes of session " + a.sessionId() + " (claude-code, holder-exited at ");
            });
        }
    }

    @Test
    void takingSuchAFileThroughAShellCommandTellsItToo() throws Exception {
        holderThatDies();
        try (StandInAgent b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002")) {
            ScriptRun pre = b.announce("sed -i 's/half/fully/' " + CART, "toolu_sed");

            assertThat(pre.json().at("/hookSpecificOutput/additionalContext").asText())
                    .contains(CART + " still carries the uncommitted changes of claude-code session aaaaaaaa");
        }
    }

    @Test
    void aFileTheExitedHolderLeftCleanIsTakenWithoutAWord() throws Exception {
        StandInAgent a = StandInAgent.start(harness, "a", "aaaaaaaa-1111-4000-8000-000000000001");
        assertThat(a.write(ORDER, "original content of " + ORDER + "\n").stdout()).doesNotContain("deny");
        a.close();
        try (StandInAgent b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002")) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                ScriptRun pre = b.writeStarts(ORDER, "by B\n", "toolu_" + System.nanoTime());
                assertThat(harness.holderOf(ORDER)).contains(b.sessionId());
                assertThat(pre.stdout()).doesNotContain("still carries");
            });
            assertThat(leftOver()).isEmpty();
        }
    }
}
