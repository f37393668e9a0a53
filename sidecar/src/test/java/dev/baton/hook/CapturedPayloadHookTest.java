package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.codex.CodexDialect;
import dev.baton.agent.copilot.CopilotDialect;
import org.junit.jupiter.api.Test;

/**
 * The payloads captured from the real CLIs ({@code hook-samples/captured}), through the real hook script: each
 * agent's edit locks {@code src/A.java}, a second session of the agent is denied it, and the agent's turn end
 * (Stop, agentStop, AfterAgent) frees it when it is clean and keeps it when it is dirty. Captures of one agent
 * come from different runs, so a turn end is pointed at the editing session by its id.
 */
class CapturedPayloadHookTest extends HookFixture {

    private static final String A = "src/A.java";

    private static final String CODEX = "01a20ad7-0d1e-7261-a9b4-ba69d2d81e73";
    private static final String CODEX_STOP = "01a20ad0-3133-7b51-bfa3-b66e4f5c23fd";
    private static final String COPILOT = "df563664-d1cb-4339-8b60-f2a45ceb67a2";
    private static final String COPILOT_STOP = "64563760-bae0-4f6b-b565-69b6b661ffb4";
    private static final String GEMINI = "685115bf-cb3f-4c90-907a-54b3db7e08d8";

    @Test
    void aCodexApplyPatchHeredocRunThroughBashLocksThePatchedFile() throws Exception {
        ScriptRun edit = harness.run("codex", "PreToolUse", harness.captured("codex-PreToolUse-Bash.json"));

        assertThat(edit.silent()).as("stdout=%s stderr=%s", edit.stdout(), edit.stderr()).isTrue();
        assertThat(harness.holderOf(A)).contains(CODEX);
        assertThat(harness.lockOf(A).orElseThrow().editInFlight()).isTrue();
        ScriptRun second = harness.run("codex", "PreToolUse", harness.captured("codex-PreToolUse-Bash-2.json"));
        assertThat(second.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(second.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .startsWith("Baton blocked this edit: src/A.java is held by codex session 01a20ad7-0d1e");
    }

    @Test
    void codexStopFreesTheHeredocEditThatNoPostToolUseFollowedWhenClean() throws Exception {
        harness.run("codex", "PreToolUse", harness.captured("codex-PreToolUse-Bash.json"));

        ScriptRun stop = harness.run("codex", "Stop", harness.captured("codex-Stop.json").replace(CODEX_STOP, CODEX));

        assertThat(stop.silent()).isTrue();
        assertThat(harness.holderOf(A)).isEmpty();
        assertThat(harness.run("codex", "PreToolUse", harness.captured("codex-PreToolUse-Bash-2.json")).silent()).isTrue();
    }

    @Test
    void codexStopKeepsTheHeredocEditsFileWhenItIsDirty() throws Exception {
        harness.run("codex", "PreToolUse", harness.captured("codex-PreToolUse-Bash.json"));
        harness.repo().write(A, "public class A {\n    // edited by x1\n}\n");

        harness.run("codex", "Stop", harness.captured("codex-Stop.json").replace(CODEX_STOP, CODEX));

        assertThat(harness.holderOf(A)).contains(CODEX);
    }

    @Test
    void aCodexSessionStartWithoutTurnIdRegistersACodexSession() throws Exception {
        ScriptRun start = harness.run("codex", "SessionStart", harness.captured("codex-SessionStart.json"));

        assertThat(start.json().at("/hookSpecificOutput/additionalContext").asText())
                .contains("Your Baton session is 01a20acf-d3a2-7863-b187-4ad413db79c7");
        assertThat(harness.baton().sessions().get("01a20acf-d3a2-7863-b187-4ad413db79c7").agent())
                .isEqualTo(CodexDialect.KIND);
    }

    @Test
    void codexApplyPatchAndItsPostToolUseLockAndFinishTheEdit() throws Exception {
        String session = "01a20acf-d3a2-7863-b187-4ad413db79c7";
        assertThat(harness.run("codex", "PreToolUse", harness.captured("codex-PreToolUse-apply_patch.json")).silent()).isTrue();
        assertThat(harness.lockOf(A).orElseThrow().editInFlight()).isTrue();

        harness.run("codex", "PostToolUse", harness.captured("codex-PostToolUse-apply_patch.json"));

        assertThat(harness.lockOf(A)).hasValueSatisfying(lock -> {
            assertThat(lock.sessionId()).isEqualTo(session);
            assertThat(lock.editInFlight()).isFalse();
        });
    }

    @Test
    void copilotSessionStartRegistersTheSessionItNames() throws Exception {
        ScriptRun start = harness.run("copilot", "sessionStart", harness.captured("copilot-sessionStart.json"));

        assertThat(start.json().get("additionalContext").asText()).contains("Your Baton session is " + COPILOT);
        assertThat(harness.baton().sessions().get(COPILOT).agent()).isEqualTo(CopilotDialect.KIND);
    }

    @Test
    void aCopilotEditWithObjectToolArgsIsLockedFinishedAndFreedAtAgentStop() throws Exception {
        assertThat(harness.run("copilot", "preToolUse", harness.captured("copilot-preToolUse-edit.json")).silent()).isTrue();
        assertThat(harness.lockOf(A).orElseThrow().editInFlight()).isTrue();
        ScriptRun other = harness.run("copilot", "preToolUse", harness.captured("copilot-preToolUse-edit-2.json"));
        assertThat(other.json().get("permissionDecision").asText()).isEqualTo("deny");

        harness.run("copilot", "postToolUse", harness.captured("copilot-postToolUse-edit.json"));
        assertThat(harness.lockOf(A).orElseThrow().editInFlight()).isFalse();
        ScriptRun stop = harness.run("copilot", "agentStop",
                harness.captured("copilot-agentStop.json").replace(COPILOT_STOP, COPILOT));

        assertThat(stop.silent()).isTrue();
        assertThat(harness.holderOf(A)).isEmpty();
    }

    @Test
    void copilotAgentStopEndsAnEditWhosePostToolUseNeverCameAndKeepsItIfDirty() throws Exception {
        harness.run("copilot", "preToolUse", harness.captured("copilot-preToolUse-apply_patch.json"));
        String session = "d289b825-a35e-4e4c-b79b-ca51e239a786";
        assertThat(harness.holderOf(A)).contains(session);
        harness.repo().write(A, "public class A {\n    // edited by m-gpt54b\n}\n");

        harness.run("copilot", "agentStop", harness.captured("copilot-agentStop.json").replace(COPILOT_STOP, session));

        assertThat(harness.lockOf(A)).hasValueSatisfying(lock -> {
            assertThat(lock.sessionId()).isEqualTo(session);
            assertThat(lock.editInFlight()).isFalse();
        });
    }

    @Test
    void aGeminiReplaceIsLockedAndAfterAgentFreesItWhenClean() throws Exception {
        assertThat(harness.run("gemini", "BeforeTool", harness.captured("gemini-BeforeTool-replace.json")).silent()).isTrue();
        assertThat(harness.holderOf(A)).contains(GEMINI);
        ScriptRun other = harness.run("gemini", "BeforeTool", harness.captured("gemini-BeforeTool-replace-2.json"));
        assertThat(other.json().get("decision").asText()).isEqualTo("deny");

        ScriptRun end = harness.run("gemini", "AfterAgent", harness.captured("gemini-AfterAgent.json"));

        assertThat(end.silent()).isTrue();
        assertThat(harness.holderOf(A)).isEmpty();
    }

    @Test
    void geminiAfterAgentEndsAReplaceWhoseAfterToolNeverCameAndKeepsItIfDirty() throws Exception {
        harness.run("gemini", "BeforeTool", harness.captured("gemini-BeforeTool-replace.json"));
        harness.repo().write(A, "public class A {\n    // edited by g0\n}\n");

        harness.run("gemini", "AfterAgent", harness.captured("gemini-AfterAgent.json"));

        assertThat(harness.lockOf(A)).hasValueSatisfying(lock -> {
            assertThat(lock.sessionId()).isEqualTo(GEMINI);
            assertThat(lock.editInFlight()).isFalse();
        });
    }
}
