package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentDialects;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two seams later features use: notices shown to a session's agent, and a listener told of every denial. */
class HookSeamsTest {

    private static final String OTHER = "7d0e1f2a-0000-4b1c-9d8e-aaaaaaaaaaaa";

    @TempDir
    Path dir;

    private final Map<String, Queue<String>> pending = new ConcurrentHashMap<>();
    private final Queue<String> denials = new ConcurrentLinkedQueue<>();
    private HookHarness harness;

    @BeforeEach
    void startSidecarWithSeams() throws Exception {
        HookNotices notices = session -> {
            Queue<String> lines = pending.getOrDefault(session, new ConcurrentLinkedQueue<>());
            List<String> taken = List.copyOf(lines);
            lines.clear();
            return taken;
        };
        DeniedEditListener listener = (session, file, holder) -> denials.add(session + " " + file + " " + holder.session());
        harness = HookHarness.start(dir, baton -> List.of(HookRoutes.of(baton, AgentDialects.ALL, LockScope.defaults(), notices, listener)));
    }

    @AfterEach
    void stopSidecar() {
        harness.close();
    }

    private void notice(String session, String line) {
        pending.computeIfAbsent(session, s -> new ConcurrentLinkedQueue<>()).add(line);
    }

    @Test
    void aNoticeReachesTheAgentOnceAsAdditionalContextOfItsNextEdit() throws Exception {
        notice(CLAUDE_SESSION, "claude session 7d0e… asks for Cart.java: reviewing totals");
        String edit = harness.sample("claude-pretooluse-edit.json");

        ScriptRun first = harness.run("claude", "PreToolUse", edit);
        ScriptRun second = harness.run("claude", "PreToolUse", edit);

        assertThat(first.exit()).isZero();
        assertThat(first.json().at("/hookSpecificOutput/hookEventName").asText()).isEqualTo("PreToolUse");
        assertThat(first.json().at("/hookSpecificOutput/permissionDecision").isMissingNode()).isTrue();
        assertThat(first.json().at("/hookSpecificOutput/additionalContext").asText())
                .isEqualTo("claude session 7d0e… asks for Cart.java: reviewing totals");
        assertThat(second.silent()).isTrue();
    }

    @Test
    void aNoticeForADeniedSessionFollowsTheReason() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));
        notice(OTHER, "you have a message from claude session 3f2a…");

        ScriptRun denied = harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, OTHER));

        assertThat(denied.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .startsWith("Baton blocked this edit: ")
                .endsWith("\n\nyou have a message from claude session 3f2a…");
    }

    @Test
    void aNoticeWaitsWhenTheEventCannotCarryIt() throws Exception {
        notice("gem-8d1f2a", "a line for later");
        String write = harness.sample("gemini-beforetool-write-file.json");

        ScriptRun before = harness.run("gemini", "BeforeTool", write);
        ScriptRun after = harness.run("gemini", "AfterTool", write.replace("BeforeTool", "AfterTool"));

        assertThat(before.silent()).isTrue();
        assertThat(after.json().at("/hookSpecificOutput/additionalContext").asText()).isEqualTo("a line for later");
    }

    @Test
    void everyDenialIsReportedWithTheFileAndItsHolder() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));

        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, OTHER));

        assertThat(denials).containsExactly(
                OTHER + " " + harness.repo().path("src/main/java/shop/Cart.java") + " " + CLAUDE_SESSION);
    }

    @Test
    void theSessionIntroCarriesPendingNoticesToo() throws Exception {
        notice(CLAUDE_SESSION, "welcome back");

        ScriptRun start = harness.run("claude", "SessionStart", harness.sample("claude-sessionstart.json"));

        assertThat(start.json().at("/hookSpecificOutput/additionalContext").asText()).endsWith("\n\nwelcome back");
    }
}
