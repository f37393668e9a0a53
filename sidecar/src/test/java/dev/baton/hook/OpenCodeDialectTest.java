package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.AgentDialects;
import dev.baton.agent.opencode.OpenCodeDialect;
import dev.baton.state.BatonException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OpenCode's payloads as Baton's plug-in sends them, read by its dialect, and the answers the plug-in acts on. */
class OpenCodeDialectTest {

    private static HookCall read(String json) {
        HookPayload payload = HookPayload.parse(json.getBytes(StandardCharsets.UTF_8));
        return AgentDialects.ALL.detect("opencode", payload).read(payload, null);
    }

    private static String call(String event, String tool, String args) {
        return """
                {"hook_event_name":"%s","session_id":"ses_1","cwd":"/home/dev/shop","tool_name":"%s",
                 "tool_input":%s,"tool_use_id":"call_1"}""".formatted(event, tool, args);
    }

    @Test
    void editWriteAndApplyPatchNameTheFilesTheyWrite() {
        HookCall write = read(call("tool.execute.before", "write", "{\"filePath\":\"src/A.java\",\"content\":\"x\"}"));
        HookCall edit = read(call("tool.execute.after", "edit",
                "{\"filePath\":\"/home/dev/shop/src/B.java\",\"oldString\":\"a\",\"newString\":\"b\"}"));
        HookCall patch = read(call("tool.execute.before", "apply_patch", "{\"patchText\":\"*** Begin Patch\\n*** Add File:"
                + " src/C.java\\n+c\\n*** Update File: src/D.java\\n@@\\n-d\\n+e\\n*** End Patch\"}"));

        assertThat(write.agent()).isEqualTo(OpenCodeDialect.KIND);
        assertThat(write.event()).isEqualTo(EventKind.PRE_TOOL);
        assertThat(write.sessionId()).isEqualTo("ses_1");
        assertThat(write.files()).containsExactly("src/A.java");
        assertThat(edit.event()).isEqualTo(EventKind.POST_TOOL);
        assertThat(edit.files()).containsExactly("/home/dev/shop/src/B.java");
        assertThat(patch.files()).containsExactly("src/C.java", "src/D.java");
    }

    @Test
    void bashIsAShellToolAndReadWritesNothing() {
        HookCall bash = read(call("tool.execute.before", "bash", "{\"command\":\"ls\",\"description\":\"list\"}"));
        HookCall readTool = read(call("tool.execute.before", "read", "{\"filePath\":\"src/A.java\"}"));

        assertThat(bash.editTool()).isFalse();
        assertThat(bash.toolName()).isEqualTo("bash");
        assertThat(readTool.editTool()).isFalse();
        assertThat(readTool.files()).isEmpty();
    }

    @Test
    void sessionIdleEndsTheTurnAndSessionDeletedTheSession() {
        assertThat(read("{\"hook_event_name\":\"session.idle\",\"session_id\":\"ses_1\",\"cwd\":\"/home/dev/shop\"}").event())
                .isEqualTo(EventKind.STOP);
        assertThat(read("{\"hook_event_name\":\"session.deleted\",\"session_id\":\"ses_1\"}").event())
                .isEqualTo(EventKind.SESSION_END);
        assertThat(read("{\"hook_event_name\":\"session.status\",\"session_id\":\"ses_1\"}").event())
                .isEqualTo(EventKind.OTHER);
    }

    @Test
    void aCallWithoutItsSessionOrAnApplyPatchWithoutItsPatchIsRefused() {
        assertThatThrownBy(() -> read("{\"hook_event_name\":\"session.idle\"}")).isInstanceOf(BatonException.class)
                .hasMessageContaining("no session_id (OpenCode's sessionID)");
        assertThatThrownBy(() -> read(call("tool.execute.before", "apply_patch", "{}"))).isInstanceOf(BatonException.class)
                .hasMessageContaining("the apply_patch call has no patchText");
    }

    @Test
    void theAnswersAreTheSmallObjectsThePluginActsOn() {
        Dialect dialect = OpenCodeDialect.INSTANCE;
        com.fasterxml.jackson.databind.node.ObjectNode args = dev.baton.http.Json.mapper().createObjectNode()
                .put("command", "wrapped");

        assertThat(dialect.render(new HookReply.Deny("held"), EventKind.PRE_TOOL).text()).isEqualTo("{\"deny\":\"held\"}\n");
        assertThat(dialect.render(new HookReply.Rewrite(args, "note"), EventKind.PRE_TOOL).text())
                .isEqualTo("{\"args\":{\"command\":\"wrapped\"},\"context\":\"note\"}\n");
        assertThat(dialect.render(new HookReply.Context("told"), EventKind.POST_TOOL).text()).isEqualTo("{\"context\":\"told\"}\n");
        assertThat(dialect.render(new HookReply.Context("told"), EventKind.PRE_TOOL).text())
                .as("nothing can be shown before the tool ran").isEmpty();
        assertThat(List.of(dialect.render(HookReply.SILENT, EventKind.STOP).text())).containsExactly("");
    }

}
