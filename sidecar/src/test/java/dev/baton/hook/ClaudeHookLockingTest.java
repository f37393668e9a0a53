package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.lock.FileLock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Claude Code sessions editing through the real hook script against a real sidecar. */
class ClaudeHookLockingTest extends HookFixture {

    private static final String OTHER_SESSION = "7d0e1f2a-0000-4b1c-9d8e-aaaaaaaaaaaa";

    @Test
    void anUnlockedEditPrintsNothingExitsZeroAndLocksTheFileForTheSession() throws Exception {
        ScriptRun run = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));

        assertThat(run.silent()).as("stdout=%s stderr=%s", run.stdout(), run.stderr()).isTrue();
        FileLock lock = harness.lockOf("src/main/java/shop/Cart.java").orElseThrow();
        assertThat(lock.sessionId()).isEqualTo(CLAUDE_SESSION);
        assertThat(lock.editInFlight()).isTrue();
    }

    @Test
    void aSecondSessionIsDeniedWithTheExactJsonShapeAndTheHolderDetails() throws Exception {
        String edit = harness.sample("claude-pretooluse-edit.json");
        harness.run("claude", "PreToolUse", edit);

        ScriptRun denied = harness.run("claude", "PreToolUse", edit.replace(CLAUDE_SESSION, OTHER_SESSION));

        assertThat(denied.exit()).isZero();
        assertThat(denied.stderr()).isEmpty();
        JsonNode json = denied.json();
        assertThat(json.size()).isEqualTo(1);
        JsonNode output = json.get("hookSpecificOutput");
        assertThat(output.size()).isEqualTo(3);
        assertThat(output.get("hookEventName").asText()).isEqualTo("PreToolUse");
        assertThat(output.get("permissionDecision").asText()).isEqualTo("deny");
        String reason = output.get("permissionDecisionReason").asText();
        long agentPid = ProcessHandle.current().pid(); // the test JVM runs the script, as an agent would
        assertThat(reason)
                .startsWith("Baton blocked this edit: src/main/java/shop/Cart.java is held by claude-code session 3f2a9c1e")
                .contains("(pid " + agentPid + ", alive, held for ")
                .contains("ask for it with `baton negotiate src/main/java/shop/Cart.java --reason \"…\"`");
        assertThat(harness.holderOf("src/main/java/shop/Cart.java")).contains(CLAUDE_SESSION);
        assertThat(harness.filesHeldBy(OTHER_SESSION)).isEmpty();
    }

    @Test
    void theDenialNamesTheHoldersLastEditAndPlan() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-write.json")
                .replace("docs/Übersicht – café.md", "src/main/java/shop/Cart.java"));
        harness.run("claude", "PostToolUse", harness.sample("claude-posttooluse-write.json"));
        harness.baton().sessions().setPlan(CLAUDE_SESSION, "round all totals", "Cart");

        ScriptRun denied = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, OTHER_SESSION));

        assertThat(denied.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("last edit ")
                .contains("plan: 'round all totals — now: Cart'");
    }

    @Test
    void theHolderEditsTheSameFileAgainAndAgainWithoutBeingDenied() throws Exception {
        String edit = harness.sample("claude-pretooluse-edit.json");
        String done = harness.sample("claude-posttooluse-write.json");
        for (int i = 0; i < 3; i++) {
            assertThat(harness.run("claude", "PreToolUse", edit).silent()).isTrue();
            assertThat(harness.run("claude", "PostToolUse", done).silent()).isTrue();
        }

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly("src/main/java/shop/Cart.java");
        FileLock lock = harness.lockOf("src/main/java/shop/Cart.java").orElseThrow();
        assertThat(lock.editInFlight()).isFalse();
        assertThat(lock.lastEditAt()).isNotNull();
    }

    @Test
    void multiEditAndNotebookEditLockTheFilesTheyName() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-multiedit.json"));
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-notebookedit.json"));

        assertThat(harness.filesHeldBy(CLAUDE_SESSION))
                .containsExactly("analysis/sales.ipynb", "src/main/java/shop/Order.java");
    }

    @Test
    void aPathWithNonAsciiCharactersIsLockedUnderItsExactName() throws Exception {
        String write = harness.sample("claude-pretooluse-write.json");

        assertThat(harness.run("claude", "PreToolUse", write).silent()).isTrue();
        ScriptRun denied = harness.run("claude", "PreToolUse", write.replace(CLAUDE_SESSION, OTHER_SESSION));

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly("docs/Übersicht – café.md");
        assertThat(denied.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .startsWith("Baton blocked this edit: docs/Übersicht – café.md is held by")
                .contains("`baton negotiate 'docs/Übersicht – café.md' --reason");
    }

    @Test
    void aTwentyMebibyteWriteIsLockedLikeAnyOther() throws Exception {
        String content = "x".repeat(20 * 1024 * 1024);
        String write = harness.sample("claude-pretooluse-write.json")
                .replace("# Übersicht\\n\\nPreise in € — naïve café ☕\\n", content);
        assertThat(write.length()).isGreaterThan(20 * 1024 * 1024);

        // Sending and parsing 20 MiB takes seconds on a loaded machine: a budget that fits, not the script's 6 s.
        ScriptRun run = harness.run("claude", "PreToolUse", write, HookHarness.env("BATON_HOOK_TIMEOUT", "120"));

        assertThat(run.silent()).as("stdout=%s stderr=%s", run.stdout(), run.stderr()).isTrue();
        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly("docs/Übersicht – café.md");
    }

    @Test
    void pathsThatAreNeverLockedPassWithoutALock() throws Exception {
        String edit = harness.sample("claude-pretooluse-edit.json");
        Path outside = dir.resolve("elsewhere/notes.txt");
        for (String file : new String[] {
                "node_modules/left-pad/index.js", "package-lock.json", "Cargo.lock", "target/classes/App.class",
                "web/build/app.js", "web/dist/app.js", ".git/config", "data/shop.db", outside.toString()}) {
            String path = file.startsWith("/") ? file : harness.repo().path(file).toString();
            ScriptRun run = harness.run("claude", "PreToolUse",
                    edit.replace(harness.repo().path("src/main/java/shop/Cart.java").toString(), path));
            assertThat(run.silent()).as(file).isTrue();
        }

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).isEmpty();
    }
}
