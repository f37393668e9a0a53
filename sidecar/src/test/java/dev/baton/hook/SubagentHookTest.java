package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.session.Session;
import org.junit.jupiter.api.Test;

/** Claude Code subagents: each its own holder inside its parent session. */
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
}
