package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.shell.ShellGuard;
import dev.baton.state.AuditEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The check after a shell command the checks before it could not read, run without the wrapper (as on a machine
 * without user namespaces): what changed of a file another session holds is found wherever the file is (ignored by
 * git, in a nested repository) and whatever of it changed (its working copy, its staged copy, its committed copy),
 * after a command that failed as after one that succeeded, and when its holder was at work on it meanwhile; a
 * background command is checked when it really ends. Two stand-in agents (real processes), a real repository, the real
 * hook.
 */
class ShellAfterCheckTest extends TwoAgentsFixture {



    private List<AuditEntry> conflicts() {
        return harness.baton().ledger().store().auditSince(0, 10_000).stream()
                .filter(entry -> entry.action().equals(ShellGuard.CONFLICT_ACTION)).toList();
    }

    private static String python(String relativeFile, String text) {
        return "python3 -c \"open('" + relativeFile + "', 'w').write('" + text + "\\n')\"";
    }

    @Test
    void aCommandSettledOnlyAtTheTurnsEndTellsItsWriterAtItsNextCall() throws Exception {
        assertThat(a.write(CART, "by A\n").stdout()).doesNotContain("deny");
        String command = "python3 -c \"open('" + CART + "', 'a').write('by B')\"";
        assertThat(b.announce(command, "toolu_unfinished").stdout()).doesNotContain("deny");
        b.run(command); // its PostToolUse never comes: the turn's end settles it

        b.stop();

        assertThat(b.announce("true", "toolu_next").stdout()).contains("changed the working copy of " + CART)
                .contains("which session aaaaaaaa holds");
    }

    @Test
    void aHeldFileGitIgnoresIsStillCheckedAfterTheCommand() throws Exception {
        harness.repo().write(".gitignore", "local.env\n");
        assertThat(a.write("local.env", "TOKEN=a\n").stdout()).doesNotContain("deny");
        assertThat(harness.holderOf("local.env")).contains(a.sessionId());

        StandInAgent.ShellCall call = b.bash(python("local.env", "TOKEN=b"));

        assertThat(call.postContext()).contains("changed the working copy of local.env, which session aaaaaaaa holds");
        assertThat(conflicts()).singleElement().satisfies(entry -> assertThat(entry.file()).endsWith("/local.env"));
    }

    @Test
    void aHeldFileOfANestedRepositoryIsStillCheckedAfterTheCommand() throws Exception {
        dev.baton.git.TestRepo nested = dev.baton.git.TestRepo.create(harness.repo().path("vendor/lib"), "Lib.java");
        assertThat(a.write("vendor/lib/Lib.java", "by A\n").stdout()).doesNotContain("deny");

        StandInAgent.ShellCall call = b.bash(python("vendor/lib/Lib.java", "by B"));

        assertThat(nested.root()).exists();
        assertThat(call.postContext()).contains("changed the working copy of vendor/lib/Lib.java");
        assertThat(conflicts()).singleElement().satisfies(entry -> assertThat(entry.actor()).isEqualTo(a.sessionId()));
    }

    @Test
    void stagingOrCommittingAnotherSessionsFileFromAScriptIsRecordedWithWhatOfItChanged() throws Exception {
        assertThat(a.write(CART, "by A\n").stdout()).doesNotContain("deny");

        StandInAgent.ShellCall staged = b.bash("python3 -c \"import subprocess; subprocess.run(['git', 'add', '" + CART + "'])\"");
        StandInAgent.ShellCall committed = b.bash("python3 -c \"import subprocess; subprocess.run(['git', 'commit', '-qm', 'B commits'])\"");

        assertThat(staged.postContext()).contains("changed the staged copy of " + CART);
        assertThat(committed.postContext()).contains("changed the committed copy of " + CART);
        assertThat(conflicts()).hasSize(2);
        String toHolder = a.announce("git status", "toolu_next").json().at("/hookSpecificOutput/additionalContext").asText();
        assertThat(toHolder).contains("the staged copy of your file " + CART + " was changed by session bbbbbbbb")
                .contains("the committed copy of your file " + CART + " was changed by session bbbbbbbb");
    }

    @Test
    void aCommandThatFailedIsCheckedAtItsPostToolUseFailure() throws Exception {
        assertThat(a.write(CART, "by A\n").stdout()).doesNotContain("deny");

        StandInAgent.ShellCall call = b.bashFailing(python(CART, "by B") + " && false");

        assertThat(call.exit()).isNotZero();
        assertThat(call.postContext()).contains("changed the working copy of " + CART);
        assertThat(conflicts()).singleElement();
    }

    @Test
    void aChangeWhileTheHolderWasEditingTheFileItselfIsRecordedAndSaysSo() throws Exception {
        assertThat(a.write(CART, "by A\n").stdout()).doesNotContain("deny");
        a.writeStarts(CART, "by A again\n", "toolu_a_edit"); // A's next edit of Cart.java is under way

        StandInAgent.ShellCall call = b.bash(python(CART, "by B"));

        assertThat(call.postContext()).contains("changed the working copy of " + CART)
                .contains("(and was changing itself meanwhile)");
        assertThat(conflicts()).singleElement();
        a.writeDone(CART, "by A again\n", "toolu_a_edit");
    }

    @Test
    void aBackgroundCommandIsCheckedWhenItEndsNotWhenItsPostToolUseCame() throws Exception {
        Path output = harness.dir().resolve("background.out");
        Path release = harness.dir().resolve("release");

        b.bashInBackground("while [ ! -e " + release + " ]; do sleep 0.05; done; eval 'echo later > generated.txt'", output);

        assertThat(harness.holderOf("generated.txt")).as("nothing written yet").isEmpty();
        Files.writeString(release, "go");
        await("the background command's end to be checked").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(harness.holderOf("generated.txt")).contains(b.sessionId()));
        assertThat(harness.repo().path("generated.txt")).hasContent("later");
    }

    /** The wrapper waits for a background command: while it runs at the turn's end, the command is checked at its own. */
    @Test
    void aBackgroundCommandStillRunningWhenTheTurnEndsIsCheckedWhenItEnds() throws Exception {
        Path output = harness.dir().resolve("background.out");
        Path running = harness.dir().resolve("running");
        Path release = harness.dir().resolve("release");

        b.bashInBackground("touch " + running + "; while [ ! -e " + release + " ]; do sleep 0.05; done;"
                + " eval 'echo later > generated.txt'", output);
        await("the background command to start").atMost(Duration.ofSeconds(30)).until(() -> Files.exists(running));
        b.stop();

        assertThat(harness.holderOf("generated.txt")).as("nothing written yet").isEmpty();
        Files.writeString(release, "go");
        await("the background command's end to be checked").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(harness.holderOf("generated.txt")).contains(b.sessionId()));
    }
}
