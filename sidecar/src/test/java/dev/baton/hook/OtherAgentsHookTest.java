package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.COPILOT_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.codex.CodexDialect;
import dev.baton.agent.copilot.CopilotDialect;
import dev.baton.session.Session;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Copilot CLI (camelCase and PascalCase), Codex CLI and Gemini CLI payloads through the real hook script. */
class OtherAgentsHookTest extends HookFixture {

    private static final List<String> PATCHED = List.of(
            "src/main/java/shop/Cart.java", "src/main/java/shop/Legacy.java", "src/main/java/shop/New.java",
            "src/main/java/shop/Old.java", "src/main/java/shop/Tax.java");

    private void claudeHolds(String file) throws Exception {
        String edit = harness.sample("claude-pretooluse-edit.json")
                .replace(harness.repo().path("src/main/java/shop/Cart.java").toString(), harness.repo().path(file).toString());
        assertThat(harness.run("claude", "PreToolUse", edit).silent()).isTrue();
        assertThat(harness.holderOf(file)).contains(CLAUDE_SESSION);
    }

    @Test
    void copilotToolArgsAsAJsonStringWithARelativePathLockTheFileUnderCwd() throws Exception {
        ScriptRun run = harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-create.json"));

        assertThat(run.silent()).as("stdout=%s stderr=%s", run.stdout(), run.stderr()).isTrue();
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).containsExactly("src/main/java/shop/Coupon.java");
        Session session = harness.baton().sessions().get(COPILOT_SESSION);
        assertThat(session.agent()).isEqualTo(CopilotDialect.KIND);
        assertThat(session.cwd()).isEqualTo(harness.repo().root().toString());
    }

    @Test
    void copilotIsDeniedInItsOwnFlatJsonShape() throws Exception {
        claudeHolds("src/main/java/shop/Cart.java");

        ScriptRun denied = harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-edit.json"));

        assertThat(denied.exit()).isZero();
        JsonNode json = denied.json();
        assertThat(json.size()).isEqualTo(2);
        assertThat(json.get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(json.get("permissionDecisionReason").asText())
                .startsWith("Baton blocked this edit: src/main/java/shop/Cart.java is held by claude-code session");
    }

    @Test
    void copilotWithoutSessionIdGetsTheSameIdFromItsProcessOnEveryCall() throws Exception {
        String edit = harness.sample("copilot-pretooluse-edit-nosession.json"); // toolArgs is an object here
        ProcessHandle agent = ProcessHandle.current();

        assertThat(harness.run("copilot", "preToolUse", edit).silent()).isTrue();
        assertThat(harness.run("copilot", "preToolUse", edit).silent()).isTrue();

        assertThat(harness.baton().sessions().list()).singleElement().satisfies(session -> {
            assertThat(session.id()).startsWith("copilot-").doesNotContain(Long.toString(agent.pid()))
                    .hasSizeGreaterThan("copilot-".length() + 30); // random, so no other process can take it first
            assertThat(session.process().pid()).isEqualTo(agent.pid());
            assertThat(harness.filesHeldBy(session.id())).containsExactly("README.md");
        });
    }

    @Test
    void copilotPascalCasePayloadsFromClaudeSettingsAreCopilotSessions() throws Exception {
        String edit = harness.sample("copilot-pascal-pretooluse-edit.json");

        assertThat(harness.run("claude", "PreToolUse", edit).silent()).isTrue();

        assertThat(harness.filesHeldBy(COPILOT_SESSION)).containsExactly("src/main/java/shop/Cart.java");
        assertThat(harness.baton().sessions().get(COPILOT_SESSION).agent()).isEqualTo(CopilotDialect.KIND);
    }

    @Test
    void copilotPascalCaseDenialCarriesBothCopilotsAndClaudesFields() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("copilot-pascal-pretooluse-edit.json"));

        ScriptRun denied = harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));
        harness.baton().locks().releaseAll(COPILOT_SESSION, dev.baton.lock.ReleaseReason.RELEASED);
        claudeHolds("src/main/java/shop/Cart.java");
        ScriptRun pascalDenied = harness.run("claude", "PreToolUse", harness.sample("copilot-pascal-pretooluse-edit.json"));

        assertThat(denied.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("is held by copilot-cli session c0p1l0t-5e55");
        JsonNode json = pascalDenied.json();
        assertThat(json.get("permissionDecision").asText()).isEqualTo("deny");
        assertThat(json.at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(json.get("permissionDecisionReason").asText())
                .isEqualTo(json.at("/hookSpecificOutput/permissionDecisionReason").asText());
    }

    @Test
    void applyPatchLocksAllFiveFilesItWrites() throws Exception {
        ScriptRun run = harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-apply-patch.json"));

        assertThat(run.silent()).isTrue();
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).containsExactlyElementsOf(PATCHED);
    }

    @Test
    void applyPatchIsAllOrNothingWhenOneOfItsFilesIsHeld() throws Exception {
        claudeHolds("src/main/java/shop/Tax.java");

        ScriptRun denied = harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-apply-patch.json"));

        assertThat(denied.json().get("permissionDecisionReason").asText())
                .startsWith("Baton blocked this edit: src/main/java/shop/Tax.java is held by claude-code session")
                .endsWith("This edit writes 5 files and needs all of them, so none was locked for it.");
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).isEmpty();

        harness.baton().locks().releaseAll(CLAUDE_SESSION, dev.baton.lock.ReleaseReason.RELEASED);
        assertThat(harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-apply-patch.json")).silent())
                .isTrue();
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).containsExactlyElementsOf(PATCHED);
    }

    @Test
    void aShellToolPassesUntouched() throws Exception {
        ScriptRun run = harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-bash.json"));

        assertThat(run.silent()).isTrue();
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).isEmpty();
    }

    @Test
    void codexApplyPatchLocksThePatchedFileAndIsDeniedInClaudesShape() throws Exception {
        String patch = harness.sample("codex-pretooluse-apply-patch.json");

        assertThat(harness.run("codex", "PreToolUse", patch).silent()).isTrue();
        assertThat(harness.filesHeldBy("019a7c1e-codex-4d2f-9e1a-7b3c5d9e0f12"))
                .containsExactly("src/main/java/shop/Cart.java");
        assertThat(harness.baton().sessions().get("019a7c1e-codex-4d2f-9e1a-7b3c5d9e0f12").agent())
                .isEqualTo(CodexDialect.KIND);

        ScriptRun denied = harness.run("codex", "PreToolUse", patch.replace("019a7c1e-codex", "019a7c1e-other"));
        assertThat(denied.exit()).isZero();
        assertThat(denied.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(denied.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("is held by codex session 019a7c1e");
    }

    @Test
    void geminiWriteFileLocksTheFileAndIsDeniedWithDecisionAndReason() throws Exception {
        String write = harness.sample("gemini-beforetool-write-file.json");

        assertThat(harness.run("gemini", "BeforeTool", write).silent()).isTrue();
        assertThat(harness.filesHeldBy("gem-8d1f2a")).containsExactly("src/main/java/shop/Cart.java");

        ScriptRun denied = harness.run("gemini", "BeforeTool", write.replace("gem-8d1f2a", "gem-other"));
        JsonNode json = denied.json();
        assertThat(denied.exit()).isZero();
        assertThat(json.size()).isEqualTo(2);
        assertThat(json.get("decision").asText()).isEqualTo("deny");
        assertThat(json.get("reason").asText()).contains("is held by gemini session gem-8d1f2a");
    }
}
