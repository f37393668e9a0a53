package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static dev.baton.hook.HookHarness.COPILOT_SESSION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.session.Session;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SessionStart, PostToolUse, Stop and SessionEnd through the real hook script, against a real git repository. */
class TurnEndHookTest extends HookFixture {

    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";

    /** A complete Claude edit of {@code file}: PreToolUse, then PostToolUse. */
    private void edit(String file) throws Exception {
        String path = harness.repo().path(file).toString();
        String cart = harness.repo().path("src/main/java/shop/Cart.java").toString();
        assertThat(harness.run("claude", "PreToolUse",
                harness.sample("claude-pretooluse-edit.json").replace(cart, path)).silent()).isTrue();
        assertThat(harness.run("claude", "PostToolUse",
                harness.sample("claude-posttooluse-write.json").replace(cart, path)).silent()).isTrue();
    }

    @Test
    void sessionStartRegistersTheAgentProcessAndTellsTheAgentAboutBaton() throws Exception {
        ScriptRun run = harness.run("claude", "SessionStart", harness.sample("claude-sessionstart.json"));

        assertThat(run.exit()).isZero();
        JsonNode output = run.json().get("hookSpecificOutput");
        assertThat(output.get("hookEventName").asText()).isEqualTo("SessionStart");
        assertThat(output.get("additionalContext").asText())
                .contains("Baton coordinates the AI coding agents editing this repository")
                .contains("Your Baton session is " + CLAUDE_SESSION + "; Baton knows your hooks")
                .contains("`baton negotiate FILE --reason")
                .contains("`baton check FILE`");
        Session session = harness.baton().sessions().get(CLAUDE_SESSION);
        assertThat(session.agent()).isEqualTo(ClaudeCodeDialect.KIND);
        assertThat(session.process().pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(session.process().startedAt()).isEqualTo(ProcessHandle.current().info().startInstant().orElseThrow());
        assertThat(session.repoRoot()).isEqualTo(harness.repo().root().toString());
    }

    @Test
    void theSessionKeyIsNeverPartOfWhatTheAgentIsToldSoNoTranscriptHoldsIt() throws Exception {
        ScriptRun created = harness.run("claude", "SessionStart", harness.sample("claude-sessionstart.json"));
        ScriptRun resumed = harness.run("claude", "SessionStart", harness.sample("claude-sessionstart.json"));

        for (ScriptRun run : List.of(created, resumed)) {
            String told = run.json().at("/hookSpecificOutput/additionalContext").asText();
            assertThat(told).contains("Your Baton session is " + CLAUDE_SESSION).doesNotContainIgnoringCase("key");
            // Whatever word of it might be a key: none opens the session.
            for (String word : told.split("[\\s;:,.()'`\"]+")) {
                assertThatThrownBy(() -> harness.baton().sessions().authenticate(CLAUDE_SESSION, word)).as(word)
                        .isInstanceOf(dev.baton.state.BatonException.class);
            }
        }
    }

    @Test
    void stopReleasesACleanFileAndKeepsADirtyOneAndAnUntrackedNewOne() throws Exception {
        edit("src/main/java/shop/Cart.java");
        edit("src/main/java/shop/Order.java");
        harness.repo().write("src/main/java/shop/Order.java", "changed by the agent\n");
        edit("src/main/java/shop/Coupon.java");
        harness.repo().write("src/main/java/shop/Coupon.java", "a new file, never added\n");

        ScriptRun stop = harness.run("claude", "Stop", harness.sample("claude-stop.json"));

        assertThat(stop.silent()).isTrue();
        assertThat(harness.filesHeldBy(CLAUDE_SESSION))
                .containsExactly("src/main/java/shop/Coupon.java", "src/main/java/shop/Order.java");
    }

    @Test
    void stopKeepsADeletedAStagedAnUntrackedAndAChangedFileAndReleasesACleanOneWhateverTheirNames() throws Exception {
        harness.repo().write("docs/a*b [draft].md", "committed\n");
        harness.repo().write("docs/aXb [draft].md", "committed\n");
        harness.repo().write("notes/with space.txt", "committed\n");
        harness.repo().git("add", "-A");
        harness.repo().git("commit", "-qm", "notes");
        for (String file : List.of(CART, ORDER, "docs/a*b [draft].md", "notes/with space.txt", "src/new/Untracked.java")) {
            edit(file);
        }
        java.nio.file.Files.delete(harness.repo().path(CART));
        harness.repo().write(ORDER, "staged, and the same in the working tree since\n");
        harness.repo().git("add", ORDER);
        harness.repo().write("docs/aXb [draft].md", "changed, by no session: a pattern a*b would match it\n");
        harness.repo().write("notes/with space.txt", "changed\n");
        harness.repo().write("src/new/Untracked.java", "a new file, never added\n");

        harness.run("claude", "Stop", harness.sample("claude-stop.json"));

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactlyInAnyOrder(
                CART, ORDER, "notes/with space.txt", "src/new/Untracked.java");
    }

    /** Git's status of the whole tree fails on a submodule whose repository is gone; the held files' own does not. */
    @Test
    void aBrokenSubmoduleElsewhereInTheRepositoryDoesNotKeepTheSessionsCleanFiles() throws Exception {
        harness.repo().git("update-index", "--add", "--cacheinfo",
                "160000," + harness.repo().git("rev-parse", "HEAD").strip() + ",vendor/sub");
        harness.repo().git("commit", "-qm", "a submodule");
        harness.repo().write("vendor/sub/.git", "gitdir: " + harness.dir().resolve("gone") + "\n");
        edit(CART);
        edit(ORDER);
        harness.repo().write(ORDER, "changed\n");

        harness.run("claude", "Stop", harness.sample("claude-stop.json"));

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly(ORDER);
    }

    /** More files than git is asked about by name: one status of the whole tree answers for all of them. */
    @Test
    void aTurnThatTookManyFilesReleasesTheCleanOnesAndKeepsTheChangedOnes() throws Exception {
        List<String> files = new java.util.ArrayList<>();
        StringBuilder patch = new StringBuilder("*** Begin Patch\n");
        for (int i = 0; i < 150; i++) {
            String file = "many/F" + i + ".txt";
            files.add(file);
            harness.repo().write(file, "committed " + i + "\n");
            patch.append("*** Update File: ").append(file).append("\n@@\n-committed ").append(i).append("\n+edited\n");
        }
        harness.repo().git("add", "-A");
        harness.repo().git("commit", "-qm", "many");
        String payload = "{\"sessionId\":\"" + COPILOT_SESSION + "\",\"timestamp\":1732262402000,\"cwd\":\""
                + harness.repo().root() + "\",\"toolName\":\"apply_patch\",\"toolArgs\":"
                + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(patch.append("*** End Patch\n").toString()) + "}";
        assertThat(harness.run("copilot", "preToolUse", payload).stdout()).doesNotContain("deny");
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).hasSize(150);
        List<String> changed = new java.util.ArrayList<>();
        for (int i = 0; i < 150; i += 10) {
            harness.repo().write(files.get(i), "edited\n");
            changed.add(files.get(i));
        }

        harness.run("copilot", "agentStop", harness.sample("copilot-sessionend.json"));

        assertThat(harness.filesHeldBy(COPILOT_SESSION)).containsExactlyInAnyOrderElementsOf(changed);
    }

    @Test
    void stopEndsAnEditWhosePostToolUseNeverCameReleasingItIfClean() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-multiedit.json"));
        harness.repo().write("src/main/java/shop/Order.java", "written before the tool failed\n");

        harness.run("claude", "Stop", harness.sample("claude-stop.json"));

        assertThat(harness.filesHeldBy(CLAUDE_SESSION)).containsExactly("src/main/java/shop/Order.java");
        assertThat(harness.lockOf("src/main/java/shop/Order.java").orElseThrow().editInFlight()).isFalse();
    }

    @Test
    void copilotAgentStopReleasesCleanFilesToo() throws Exception {
        harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-edit.json"));
        harness.run("copilot", "postToolUse", harness.sample("copilot-pretooluse-edit.json"));

        ScriptRun stop = harness.run("copilot", "agentStop", harness.sample("copilot-sessionend.json"));

        assertThat(stop.silent()).isTrue();
        assertThat(harness.filesHeldBy(COPILOT_SESSION)).isEmpty();
    }

    @Test
    void sessionEndReleasesEverythingAndEndsTheSession() throws Exception {
        edit("src/main/java/shop/Cart.java");
        harness.repo().write("src/main/java/shop/Cart.java", "dirty\n");
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-multiedit.json"));

        ScriptRun end = harness.run("claude", "SessionEnd", harness.sample("claude-sessionend.json"));

        assertThat(end.silent()).isTrue();
        assertThat(harness.lockCount()).isZero();
        assertThat(harness.baton().sessions().find(CLAUDE_SESSION)).isEmpty();
    }

    @Test
    void copilotSessionEndReleasesEverything() throws Exception {
        harness.run("copilot", "preToolUse", harness.sample("copilot-pretooluse-apply-patch.json"));

        assertThat(harness.run("copilot", "sessionEnd", harness.sample("copilot-sessionend.json")).silent()).isTrue();

        assertThat(harness.filesHeldBy(COPILOT_SESSION)).isEmpty();
        assertThat(harness.baton().sessions().find(COPILOT_SESSION)).isEmpty();
    }

    @Test
    void aStopOrEndOfAnUnknownSessionIsQuietlyFine() throws Exception {
        assertThat(harness.run("claude", "SessionEnd", harness.sample("claude-sessionend.json")).silent()).isTrue();
        assertThat(harness.run("claude", "Stop", harness.sample("claude-stop.json")).silent()).isTrue();
    }
}
