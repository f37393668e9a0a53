package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.COPILOT_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A tool call that fails or is refused after the hook granted its lock (Claude Code's PostToolUseFailure and
 * PermissionDenied, Copilot CLI's postToolUseFailure): its edit is over, and a file it left clean is free at once.
 */
class FailedEditHookTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";

    private ScriptRun otherSessionEditsCart() throws Exception {
        return harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, "another-session"));
    }

    @Test
    void aClaudeEditThatFailedLeavesNoLockOnACleanFile() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));
        assertThat(harness.holderOf(CART)).contains(CLAUDE_SESSION);

        ScriptRun failed = harness.run("claude", "PostToolUseFailure", harness.sample("claude-posttoolusefailure-edit.json"));

        assertThat(failed.silent()).isTrue();
        assertThat(harness.holderOf(CART)).isEmpty();
        assertThat(otherSessionEditsCart().silent()).isTrue();
    }

    @Test
    void aClaudeEditRefusedByThePermissionSystemLeavesNoLockOnACleanFile() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));

        ScriptRun denied = harness.run("claude", "PermissionDenied", harness.sample("claude-permissiondenied-edit.json"));

        assertThat(denied.silent()).isTrue();
        assertThat(harness.holderOf(CART)).isEmpty();
    }

    @Test
    void aFailedEditOfAFileTheSessionAlreadyChangedKeepsItsLock() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));
        harness.repo().write(CART, "changed by an earlier edit of this session\n");

        harness.run("claude", "PostToolUseFailure", harness.sample("claude-posttoolusefailure-edit.json"));

        assertThat(harness.lockOf(CART)).hasValueSatisfying(lock -> {
            assertThat(lock.sessionId()).isEqualTo(CLAUDE_SESSION);
            assertThat(lock.editInFlight()).isFalse();
        });
        assertThat(otherSessionEditsCart().json().at("/hookSpecificOutput/permissionDecision").asText())
                .isEqualTo("deny");
    }

    @Test
    void aFailedEditNeverReleasesAFileAnotherSessionHolds() throws Exception {
        otherSessionEditsCart();

        harness.run("claude", "PostToolUseFailure", harness.sample("claude-posttoolusefailure-edit.json"));

        assertThat(harness.holderOf(CART)).contains("another-session");
    }

    @Test
    void aCopilotEditThatFailedOnARelativePathLeavesNoLock() throws Exception {
        String relative = harness.sample("copilot-posttoolusefailure-edit.json");
        harness.run("copilot", "preToolUse", relative.replace("\"error\"", "\"ignored\""));
        assertThat(harness.holderOf(CART)).contains(COPILOT_SESSION);

        ScriptRun failed = harness.run("copilot", "postToolUseFailure", relative);

        assertThat(failed.silent()).isTrue();
        assertThat(harness.holderOf(CART)).isEmpty();
    }

    @Test
    void aCopilotPostToolUseReportingAFailureIsAFailure() throws Exception {
        harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-edit.json"));

        harness.run("copilot", "postToolUse", harness.sample("copilot-pretooluse-edit.json")
                .replace("}\"}", "}\",\"toolResult\":{\"resultType\":\"rejected\",\"textResultForLlm\":\"The user rejected\"}}"));

        assertThat(harness.holderOf(CART)).isEmpty();
    }

    @Test
    void aCopilotErrorThatNamesNoToolChangesNothing() throws Exception {
        harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-edit.json"));

        ScriptRun error = harness.run("copilot", "errorOccurred", harness.sample("copilot-erroroccurred.json"));

        assertThat(error.silent()).isTrue();
        assertThat(harness.lockOf(CART)).hasValueSatisfying(lock -> assertThat(lock.editInFlight()).isTrue());
    }
}
