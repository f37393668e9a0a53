package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.session.Session;
import org.junit.jupiter.api.Test;

/**
 * Claude Code subagents: each its own holder inside its parent session, handing its files back to the parent
 * when it ends (SubagentStop) or at the latest when the parent's turn ends.
 */
class SubagentHookTest extends HookFixture {

    private static final String FIRST = CLAUDE_SESSION + "/agent-7c1d";
    private static final String SECOND = CLAUDE_SESSION + "/agent-9e2f";

    private String subagentEdit() throws Exception {
        return harness.sample("claude-subagent-pretooluse-edit.json");
    }

    @Test
    void aSubagentIsASessionOfItsOwnInsideItsParent() throws Exception {
        assertThat(harness.run("claude", "PreToolUse", subagentEdit()).silent()).isTrue();

        assertThat(harness.filesHeldBy(FIRST)).containsExactly("src/main/java/shop/Cart.java");
        Session subagent = harness.baton().sessions().get(FIRST);
        assertThat(subagent.parentId()).isEqualTo(CLAUDE_SESSION);
        assertThat(harness.baton().sessions().find(CLAUDE_SESSION)).isPresent();
    }

    @Test
    void twoSiblingSubagentsExcludeEachOther() throws Exception {
        harness.run("claude", "PreToolUse", subagentEdit());

        ScriptRun denied = harness.run("claude", "PreToolUse", subagentEdit().replace("agent-7c1d", "agent-9e2f"));

        assertThat(denied.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(harness.filesHeldBy(SECOND)).isEmpty();
    }

    @Test
    void aSubagentMayEditAFileItsParentHolds() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));

        ScriptRun run = harness.run("claude", "PreToolUse", subagentEdit());

        assertThat(run.silent()).isTrue();
        assertThat(harness.holderOf("src/main/java/shop/Cart.java")).contains(CLAUDE_SESSION);
    }

    @Test
    void theParentsSessionEndFreesItsSubagentsLocks() throws Exception {
        harness.run("claude", "PreToolUse", subagentEdit());
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-multiedit.json")
                .replace("\"hook_event_name\"", "\"agent_id\":\"agent-9e2f\",\"hook_event_name\""));
        assertThat(harness.filesHeldBy(SECOND)).containsExactly("src/main/java/shop/Order.java");

        harness.run("claude", "SessionEnd", harness.sample("claude-sessionend.json"));

        assertThat(harness.lockCount()).isZero();
        assertThat(harness.baton().sessions().list()).isEmpty();
    }

    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";

    private String subagentEditsOrder() throws Exception {
        return harness.sample("claude-pretooluse-multiedit.json")
                .replace("\"hook_event_name\"", "\"agent_id\":\"agent-7c1d\",\"hook_event_name\"");
    }

    @Test
    void aSubagentHandsItsDirtyFilesToItsParentAndReleasesItsCleanOnesWhenItEnds() throws Exception {
        harness.run("claude", "PreToolUse", subagentEdit());
        harness.run("claude", "PreToolUse", subagentEditsOrder());
        harness.repo().write(ORDER, "changed by the subagent\n");

        ScriptRun end = harness.run("claude", "SubagentStop", harness.sample("claude-subagentstop.json"));

        assertThat(end.silent()).isTrue();
        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly(ORDER);
        assertThat(harness.lockOf(ORDER).orElseThrow().editInFlight()).isFalse();
        assertThat(harness.holderOf(CART)).isEmpty();
        assertThat(harness.baton().sessions().find(FIRST)).isEmpty();
        assertThat(harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-multiedit.json")).silent())
                .as("the main agent edits the file its subagent left it").isTrue();
    }

    @Test
    void whileItsSubagentRunsTheParentIsToldTheFileIsHeldByItsOwnSubagent() throws Exception {
        harness.run("claude", "PreToolUse", subagentEdit());

        ScriptRun parent = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));

        assertThat(parent.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(parent.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains(CART + " is being edited by your own subagent " + FIRST)
                .contains("passes to you when that subagent finishes")
                .doesNotContain("baton negotiate");
    }

    @Test
    void theMainTurnsEndHandsBackASubagentsFilesWhoseSubagentStopNeverCame() throws Exception {
        harness.run("claude", "PreToolUse", subagentEditsOrder());
        harness.repo().write(ORDER, "changed by the subagent\n");

        harness.run("claude", "Stop", harness.sample("claude-stop.json"));

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly(ORDER);
        assertThat(harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-multiedit.json")).silent())
                .isTrue();
    }

    @Test
    void theParentMayReleaseAFileItsSubagentHolds() throws Exception {
        harness.run("claude", "PreToolUse", subagentEdit());

        var outcome = harness.baton().locks().release(CLAUDE_SESSION,
                java.util.List.of(harness.repo().path(CART).toString()), dev.baton.lock.ReleaseReason.RELEASED);

        assertThat(outcome.released()).containsExactly(harness.repo().path(CART).toString());
        assertThat(harness.holderOf(CART)).isEmpty();
    }

    @Test
    void aSiblingIsToldTheFullIdOfTheSubagentHoldingTheFile() throws Exception {
        harness.run("claude", "PreToolUse", subagentEdit());

        ScriptRun denied = harness.run("claude", "PreToolUse", subagentEdit().replace("agent-7c1d", "agent-9e2f"));

        assertThat(denied.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("is held by claude-code session 3f2a9c1e/agent-7c1d (");
    }
}
