package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.AgentDialects;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.agent.codex.CodexDialect;
import dev.baton.agent.copilot.CopilotDialect;
import dev.baton.agent.copilot.CopilotPascalDialect;
import dev.baton.agent.gemini.GeminiDialect;
import dev.baton.agent.opencode.OpenCodeDialect;
import dev.baton.http.Json;
import dev.baton.session.AgentKind;
import dev.baton.state.BatonException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Dialect detection and reading on every sample payload, and each dialect's answer shapes. */
class DialectTest {

    private static final String CLAUDE = HookHarness.CLAUDE_SESSION;
    private static final String COPILOT = HookHarness.COPILOT_SESSION;
    private static final String CART = "/home/dev/shop/src/main/java/shop/Cart.java";

    private static HookPayload sample(String name) throws IOException {
        try (InputStream in = DialectTest.class.getResourceAsStream("/hook-samples/" + name)) {
            return HookPayload.parse(in.readAllBytes());
        }
    }

    private static HookCall read(String agent, String event, String sampleName) throws IOException {
        HookPayload payload = sample(sampleName);
        return AgentDialects.ALL.detect(agent, payload).read(payload, event);
    }

    @ParameterizedTest(name = "{2} via `baton-hook {0} {1}` is {3}")
    @CsvSource({
            "claude, PreToolUse, claude-pretooluse-edit.json, ClaudeCodeDialect",
            "claude, PreToolUse, claude-pretooluse-multiedit.json, ClaudeCodeDialect",
            "claude, PreToolUse, claude-pretooluse-notebookedit.json, ClaudeCodeDialect",
            "claude, PreToolUse, claude-pretooluse-write.json, ClaudeCodeDialect",
            "claude, PostToolUse, claude-posttooluse-write.json, ClaudeCodeDialect",
            "claude, SessionStart, claude-sessionstart.json, ClaudeCodeDialect",
            "claude, SessionEnd, claude-sessionend.json, ClaudeCodeDialect",
            "claude, Stop, claude-stop.json, ClaudeCodeDialect",
            "claude, PreToolUse, claude-subagent-pretooluse-edit.json, ClaudeCodeDialect",
            "codex, PreToolUse, codex-pretooluse-apply-patch.json, CodexDialect",
            "claude, PreToolUse, codex-pretooluse-apply-patch.json, CodexDialect",
            "claude, PreToolUse, copilot-pascal-pretooluse-edit.json, CopilotPascalDialect",
            "copilot, PreToolUse, copilot-pascal-pretooluse-edit.json, CopilotPascalDialect",
            "copilot, preToolUse, copilot-pretooluse-apply-patch.json, CopilotDialect",
            "copilot, preToolUse, copilot-pretooluse-bash.json, CopilotDialect",
            "copilot, preToolUse, copilot-pretooluse-create.json, CopilotDialect",
            "copilot, preToolUse, copilot-pretooluse-edit-nosession.json, CopilotDialect",
            "copilot, preToolUse, copilot-pretooluse-edit.json, CopilotDialect",
            "copilot, sessionEnd, copilot-sessionend.json, CopilotDialect",
            "gemini, BeforeTool, gemini-beforetool-write-file.json, GeminiDialect",
            "claude, BeforeTool, gemini-beforetool-write-file.json, GeminiDialect",
    })
    void everySampleIsRecognised(String agent, String event, String sampleName, String dialect) throws IOException {
        assertThat(AgentDialects.ALL.detect(agent, sample(sampleName)).getClass().getSimpleName()).isEqualTo(dialect);
    }

    @Test
    void onlyCodexLeavesTheEndOfItsShellCommandsToTheWrapper() {
        assertThat(AgentDialects.ALL.reportsShellCommandEnd(CodexDialect.KIND)).isFalse();
        assertThat(List.of(ClaudeCodeDialect.KIND, CopilotDialect.KIND, GeminiDialect.KIND, OpenCodeDialect.KIND,
                AgentKind.CLI, AgentKind.API)).allMatch(AgentDialects.ALL::reportsShellCommandEnd);
    }

    @Test
    void claudeCodeEditNamesItsSessionEventToolAndFile() throws IOException {
        HookCall call = read("claude", "PreToolUse", "claude-pretooluse-edit.json");

        assertThat(call).isEqualTo(new HookCall(ClaudeCodeDialect.KIND, EventKind.PRE_TOOL, CLAUDE, null,
                "/home/dev/shop", "Edit", true, List.of(CART)));
    }

    @Test
    void claudeCodeFilesComeFromFilePathOrNotebookPath() throws IOException {
        assertThat(read("claude", "PreToolUse", "claude-pretooluse-multiedit.json").files())
                .containsExactly("/home/dev/shop/src/main/java/shop/Order.java");
        assertThat(read("claude", "PreToolUse", "claude-pretooluse-notebookedit.json").files())
                .containsExactly("/home/dev/shop/analysis/sales.ipynb");
        assertThat(read("claude", "PreToolUse", "claude-pretooluse-write.json").files())
                .containsExactly("/home/dev/shop/docs/Übersicht – café.md");
        assertThat(read("claude", "PostToolUse", "claude-posttooluse-write.json"))
                .extracting(HookCall::event, HookCall::files).containsExactly(EventKind.POST_TOOL, List.of(CART));
    }

    @Test
    void claudeCodeLifecycleEventsCarryNoTool() throws IOException {
        assertThat(read("claude", "SessionStart", "claude-sessionstart.json"))
                .extracting(HookCall::event, HookCall::editTool).containsExactly(EventKind.SESSION_START, false);
        assertThat(read("claude", "Stop", "claude-stop.json").event()).isEqualTo(EventKind.STOP);
        assertThat(read("claude", "SessionEnd", "claude-sessionend.json").event()).isEqualTo(EventKind.SESSION_END);
    }

    @Test
    void theEventNameInThePayloadWinsOverTheOneTheScriptPassed() throws IOException {
        assertThat(read("claude", "Stop", "claude-pretooluse-edit.json").event()).isEqualTo(EventKind.PRE_TOOL);
    }

    @Test
    void aClaudeSubagentCarriesItsAgentId() throws IOException {
        HookCall call = read("claude", "PreToolUse", "claude-subagent-pretooluse-edit.json");

        assertThat(call.sessionId()).isEqualTo(CLAUDE);
        assertThat(call.subagentId()).isEqualTo("agent-7c1d");
    }

    @Test
    void codexApplyPatchNamesThePatchedFileRelativeToCwd() throws IOException {
        HookCall call = read("codex", "PreToolUse", "codex-pretooluse-apply-patch.json");

        assertThat(call).isEqualTo(new HookCall(CodexDialect.KIND, EventKind.PRE_TOOL,
                "019a7c1e-codex-4d2f-9e1a-7b3c5d9e0f12", null, "/home/dev/shop", "apply_patch", true,
                List.of("src/main/java/shop/Cart.java")));
    }

    @Test
    void copilotPascalCaseReadsPathFromClaudeStyleToolInput() throws IOException {
        HookCall call = read("claude", "PreToolUse", "copilot-pascal-pretooluse-edit.json");

        assertThat(call).isEqualTo(new HookCall(CopilotDialect.KIND, EventKind.PRE_TOOL, COPILOT, null,
                "/home/dev/shop", "Edit", true, List.of(CART)));
    }

    @Test
    void copilotToolArgsAsAJsonStringOrAnObjectGiveTheSamePath() throws IOException {
        assertThat(read("copilot", "preToolUse", "copilot-pretooluse-edit.json").files()).containsExactly(CART);
        assertThat(read("copilot", "preToolUse", "copilot-pretooluse-create.json").files())
                .containsExactly("src/main/java/shop/Coupon.java");
        HookCall noSession = read("copilot", "preToolUse", "copilot-pretooluse-edit-nosession.json");
        assertThat(noSession.files()).containsExactly("/home/dev/shop/README.md");
        assertThat(noSession.sessionId()).isNull();
    }

    @Test
    void copilotApplyPatchNamesEveryFileItWrites() throws IOException {
        assertThat(read("copilot", "preToolUse", "copilot-pretooluse-apply-patch.json").files()).containsExactly(
                "src/main/java/shop/Cart.java", "src/main/java/shop/Tax.java", "src/main/java/shop/Legacy.java",
                "src/main/java/shop/Old.java", "src/main/java/shop/New.java");
    }

    @Test
    void copilotShellAndViewCommandsAreNotEdits() throws IOException {
        assertThat(read("copilot", "preToolUse", "copilot-pretooluse-bash.json"))
                .extracting(HookCall::toolName, HookCall::editTool, HookCall::files)
                .containsExactly("bash", false, List.of());
        HookPayload view = HookPayload.parse(("{\"sessionId\":\"s\",\"cwd\":\"/w\",\"toolName\":\"str_replace_editor\","
                + "\"toolArgs\":\"{\\\"command\\\":\\\"view\\\",\\\"path\\\":\\\"a.txt\\\"}\"}").getBytes(StandardCharsets.UTF_8));
        assertThat(AgentDialects.ALL.detect("copilot", view).read(view, "preToolUse").editTool()).isFalse();
    }

    @Test
    void copilotEventsComeFromTheConfigKey() throws IOException {
        assertThat(read("copilot", "sessionEnd", "copilot-sessionend.json").event()).isEqualTo(EventKind.SESSION_END);
        assertThat(read("copilot", "agentStop", "copilot-sessionend.json").event()).isEqualTo(EventKind.STOP);
        assertThat(read("copilot", "subagentStop", "copilot-sessionend.json").event()).isEqualTo(EventKind.OTHER);
        assertThatThrownBy(() -> read("copilot", null, "copilot-pretooluse-edit.json"))
                .isInstanceOf(BatonException.class).hasMessageContaining("carry no event name");
    }

    @Test
    void geminiWriteFileIsABeforeToolEdit() throws IOException {
        HookCall call = read("gemini", "BeforeTool", "gemini-beforetool-write-file.json");

        assertThat(call).isEqualTo(new HookCall(GeminiDialect.KIND, EventKind.PRE_TOOL, "gem-8d1f2a", null,
                "/home/dev/shop", "write_file", true, List.of(CART)));
    }

    @Test
    void claudeAndCodexDenyInsideHookSpecificOutputCodexWithoutTheLastPeriodItAddsItself() throws IOException {
        HookOutput output = render(ClaudeCodeDialect.INSTANCE, new HookReply.Deny("held. Try later."), EventKind.PRE_TOOL);

        assertThat(output).isEqualTo(HookOutput.stdout(
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                        + "\"permissionDecisionReason\":\"held. Try later.\"}}\n"));
        assertThat(render(CodexDialect.INSTANCE, new HookReply.Deny("held. Try later."), EventKind.PRE_TOOL))
                .isEqualTo(HookOutput.stdout(output.text().replace("Try later.", "Try later")));
        assertThat(render(CodexDialect.INSTANCE, new HookReply.Deny("held"), EventKind.PRE_TOOL).text())
                .contains("\"permissionDecisionReason\":\"held\"");
    }

    @Test
    void copilotAndGeminiDenyInTheirOwnShapes() {
        assertThat(render(CopilotDialect.INSTANCE, new HookReply.Deny("held"), EventKind.PRE_TOOL).text())
                .isEqualTo("{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"held\"}\n");
        assertThat(render(GeminiDialect.INSTANCE, new HookReply.Deny("held"), EventKind.PRE_TOOL).text())
                .isEqualTo("{\"decision\":\"deny\",\"reason\":\"held\"}\n");
    }

    @Test
    void contextGoesWhereEachAgentReadsIt() throws IOException {
        HookReply context = new HookReply.Context("note");

        assertThat(json(render(ClaudeCodeDialect.INSTANCE, context, EventKind.POST_TOOL)).at("/hookSpecificOutput"))
                .isEqualTo(Json.mapper().readTree("{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"note\"}"));
        assertThat(json(render(CopilotDialect.INSTANCE, context, EventKind.PRE_TOOL)))
                .isEqualTo(Json.mapper().readTree("{\"additionalContext\":\"note\"}"));
        assertThat(json(render(GeminiDialect.INSTANCE, context, EventKind.POST_TOOL)).at("/hookSpecificOutput/hookEventName")
                .asText()).isEqualTo("AfterTool");
        assertThat(render(GeminiDialect.INSTANCE, context, EventKind.PRE_TOOL)).isEqualTo(HookOutput.NOTHING);
        assertThat(render(ClaudeCodeDialect.INSTANCE, context, EventKind.STOP)).isEqualTo(HookOutput.NOTHING);
    }

    @Test
    void silenceIsNothingAtAll() {
        for (Dialect dialect : List.<Dialect>of(ClaudeCodeDialect.INSTANCE, CodexDialect.INSTANCE,
                CopilotDialect.INSTANCE, CopilotPascalDialect.INSTANCE, GeminiDialect.INSTANCE)) {
            for (EventKind event : EventKind.values()) {
                assertThat(dialect.render(HookReply.SILENT, event)).isEqualTo(HookOutput.NOTHING);
            }
        }
    }

    private static JsonNode json(HookOutput output) throws IOException {
        return Json.mapper().readTree(output.text());
    }

    /** Through the base type: the answer's rendering is the hook package's, whichever agent's dialect it is. */
    private static HookOutput render(Dialect dialect, HookReply reply, EventKind event) {
        return dialect.render(reply, event);
    }
}
