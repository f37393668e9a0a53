package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The read-only set follows the lock table while a command runs: two stand-in agents (real processes) in one real
 * git repository, their commands through the real hook and the real wrapper. Each command under test waits for
 * marker files the test writes and reports what it saw in marker files of its own, so every step is driven by what
 * happened, not by time; the loops in the commands are bounded and end early once the test writes {@code give-up}.
 */
class ShellLiveEnforcementTest extends TwoAgentsFixture {

    static final Duration LONG_ENOUGH = Duration.ofSeconds(60);

    /** Waits, bounded, until a shell condition holds or the test gives up. */
    static String until(String condition) {
        return "i=0; while ! { " + condition + "; } && [ ! -e give-up ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i+1)); done";
    }

    @AfterEach
    void giveUp() throws Exception {
        Files.writeString(harness.repo().path("give-up"), "");
    }

    private void awaitMarker(String name) {
        await().atMost(LONG_ENOUGH).until(() -> Files.exists(harness.repo().path(name)));
    }

    @Test
    void aFileTakenWhileACommandRunsBecomesReadOnlyForItAndWritableAgainOnceReleased() throws Exception {
        String original = content(CART);
        Path output = harness.dir().resolve("b-output.txt");
        b.bashInBackground("touch started; " + until("[ ! -w " + CART + " ]") + "; "
                + "{ echo by-B >> " + CART + " && echo B-wrote || echo B-refused; } 2>&1; touch tried; "
                + until("[ -w " + CART + " ]") + "; [ -w " + CART + " ] && echo writable-again; touch done", output);
        awaitMarker("started");
        assertThat(Files.isWritable(harness.repo().path(CART))).isTrue();

        aHoldsCart();

        awaitMarker("tried");
        assertThat(Files.readString(output)).contains("Read-only file system").contains("B-refused")
                .doesNotContain("B-wrote");
        assertThat(content(CART)).contains("by A").doesNotContain("by-B");

        // A puts its change back and ends its turn: the clean file is released, and the command may write it again.
        a.write(CART, original);
        a.stop();
        assertThat(harness.holderOf(CART)).isEmpty();
        awaitMarker("done");
        assertThat(Files.readString(output)).contains("writable-again");
    }

    @Test
    void theNoteOfACommandThatHitAFileTakenWhileItRanNamesTheFileAndItsHolder() throws Exception {
        Path output = harness.dir().resolve("b-note.txt");
        b.bashInBackground("touch started; " + until("[ ! -w " + CART + " ]") + "; echo by-B >> " + CART
                + "; touch tried; true", output);
        awaitMarker("started");

        aHoldsCart();

        awaitMarker("tried");
        await().atMost(LONG_ENOUGH).until(() -> Files.readString(output).contains("Baton:"));
        assertThat(Files.readString(output)).contains("Read-only file system")
                .contains("Baton: files other sessions hold were read-only while this command ran: " + CART
                        + " (held by claude-code session aaaaaaaa, pid " + a.pid() + ")");
        assertThat(content(CART)).doesNotContain("by-B");
    }

    @Test
    void aHeldFileItsHolderReplacesByRenameIsBoundAgainOnItsNewInode() throws Exception {
        aHoldsCart();
        Path output = harness.dir().resolve("b-output.txt");
        b.bashInBackground("touch started; " + until("[ -e replaced ]") + "; " + until("[ ! -w " + CART + " ]")
                + "; { echo by-B >> " + CART + " && echo B-wrote || echo B-refused; } 2>&1; touch tried", output);
        awaitMarker("started");

        StandInAgent.WrappedCall replace = a.bashWrapped("printf 'version two by A\\n' > " + CART + ".new && mv "
                + CART + ".new " + CART + " && touch replaced");
        assertThat(replace.command().exit()).as(replace.command().stderr()).isZero();

        awaitMarker("tried");
        assertThat(Files.readString(output)).contains("B-refused").doesNotContain("B-wrote");
        assertThat(content(CART)).isEqualTo("version two by A\n");
    }

    @Test
    void aHelperStartedWhileNothingWasHeldStaysInTheNamespaceAndFindsAFileTakenLaterReadOnly() throws Exception {
        StandInAgent.WrappedCall start = b.bashWrapped("nohup sh -c '" + until("[ -e go ]").replace("'", "'\\''")
                + "; { echo by-B >> " + CART + " && echo B-wrote || echo B-refused; } > helper.out 2>&1' > /dev/null 2>&1 &");
        assertThat(start.command().exit()).as(start.command().stderr()).isZero();

        aTakesCartAndTheHelperIsRefused();
    }

    @Test
    void aHelperLeftByACommandWhoseWrapperWasKilledStillFindsAFileTakenLaterReadOnly() throws Exception {
        // The agent gave up on the command and killed its wrapper (the binder's parent) before the command ended.
        b.bashWrapped("nohup sh -c '" + until("[ -e go ]").replace("'", "'\\''") + "; { echo by-B >> " + CART
                + " && echo B-wrote || echo B-refused; } > helper.out 2>&1' > /dev/null 2>&1 &"
                + " kill -9 $(ps -o ppid= -p $PPID)");

        aTakesCartAndTheHelperIsRefused();
    }

    /** A takes Cart.java, then lets B's waiting helper try its write: the write is refused and leaves A's work. */
    private void aTakesCartAndTheHelperIsRefused() throws Exception {
        aHoldsCart();
        Files.writeString(harness.repo().path("go"), "");

        await().atMost(LONG_ENOUGH).until(() -> Files.exists(harness.repo().path("helper.out"))
                && Files.readString(harness.repo().path("helper.out")).contains("B-"));
        assertThat(content("helper.out")).contains("Read-only file system").contains("B-refused");
        assertThat(content(CART)).contains("by A").doesNotContain("by-B");
    }

    @Test
    void aCommandThatGoesOnAfterAWriteWasRefusedStillGetsBatonsNoteThoughItExitsZero() throws Exception {
        aHoldsCart();

        StandInAgent.WrappedCall call = b.bashWrapped("python3 -c \"open('" + CART + "', 'a').write('by B')\"; echo carried on");

        assertThat(call.denied()).as("no check before the command can read what python writes").isFalse();
        assertThat(call.command().exit()).isZero();
        assertThat(call.command().stdout()).contains("carried on");
        assertThat(call.command().stderr()).contains("Read-only file system")
                .contains("Baton: files other sessions hold were read-only while this command ran: " + CART);
        assertThat(call.command().stderr().indexOf("Read-only file system"))
                .isLessThan(call.command().stderr().indexOf("Baton: files other sessions hold"));
    }

    @Test
    void aCommandThatTouchedNoHeldFileGetsNoNote() throws Exception {
        aHoldsCart();

        StandInAgent.WrappedCall call = b.bashWrapped("echo fine > notes.md; echo done");

        assertThat(call.command().exit()).isZero();
        assertThat(call.command().stderr()).doesNotContain("Baton");
    }

    @Test
    void noOtherSessionCanRenameOrRemoveADirectoryAboveAHeldFile() throws Exception {
        aHoldsCart();
        String attempts = String.join("; ",
                "mv src src-moved",
                "mv src/main/java/shop src/main/java/elsewhere",
                "python3 -c \"import os; os.rename('src/main', 'main-moved')\"",
                "python3 -c \"import os; os.rename('src', '.tmp-src')\"",
                "rm -rf src",
                "mv .git .git-moved",
                "cd .. && mv shop shop-moved; cd shop 2>/dev/null || true",
                "true");

        StandInAgent.WrappedCall call = b.bashWrapped("eval \"" + attempts.replace("\"", "\\\"") + "\"");

        assertThat(call.command().stderr()).contains("Device or resource busy");
        assertThat(harness.repo().path(CART)).exists();
        assertThat(content(CART)).contains("by A");
        assertThat(harness.repo().path(".git/HEAD")).exists();
        assertThat(harness.repo().path("src-moved")).doesNotExist();
        assertThat(harness.repo().path(".tmp-src")).doesNotExist();
    }

    @Test
    void noOtherSessionCanPlantCodeTheHoldersGitWouldRun() throws Exception {
        aHoldsCart();
        Files.writeString(harness.repo().path(".gitattributes"), "*.bin binary\n");
        String attempts = String.join("; ",
                "printf '#!/bin/sh\\necho planted >> " + CART + "\\n' > .git/hooks/pre-commit",
                "cp /bin/true .git/hooks/post-checkout",
                "git config core.fsmonitor 'echo planted >> " + CART + "'",
                "printf '[core]\\n\\tfsmonitor = echo planted\\n' >> .git/config",
                "printf '* filter=planted\\n' >> .gitattributes",
                "printf '* filter=planted\\n' > .git/info/attributes",
                "python3 -c \"open('.git/hooks/pre-push', 'w').write('planted')\"",
                "true");

        StandInAgent.WrappedCall call = b.bashWrapped("eval \"" + attempts.replace("\"", "\\\"") + "\"");

        assertThat(call.command().stderr()).contains("Read-only file system");
        assertThat(harness.repo().path(".git/hooks/pre-commit")).doesNotExist();
        assertThat(harness.repo().path(".git/hooks/post-checkout")).doesNotExist();
        assertThat(harness.repo().path(".git/hooks/pre-push")).doesNotExist();
        assertThat(harness.repo().path(".git/info/attributes")).doesNotExist();
        assertThat(content(".git/config")).doesNotContain("planted").doesNotContain("fsmonitor");
        assertThat(content(".gitattributes")).isEqualTo("*.bin binary\n");
    }

    @Test
    void anEditToolCannotWriteAGitHookWhileAnotherSessionHoldsFilesInTheRepository() throws Exception {
        aHoldsCart();

        ScriptRun hook = b.write(".git/hooks/pre-commit", "#!/bin/sh\necho planted >> " + CART + "\n");
        ScriptRun config = b.write(".git/config", "[core]\n\tfsmonitor = echo planted\n");

        assertThat(hook.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        assertThat(hook.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("is a git hook").contains("other sessions hold files in this repository");
        assertThat(config.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("the repository's git configuration");
        assertThat(harness.repo().path(".git/hooks/pre-commit")).doesNotExist();
        assertThat(content(".git/config")).doesNotContain("planted");
    }

    @Test
    void withNothingHeldByOthersAGitHookMayBeWritten() throws Exception {
        ScriptRun hook = b.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");

        assertThat(hook.stdout()).doesNotContain("deny");
        assertThat(harness.repo().path(".git/hooks/pre-commit")).hasContent("#!/bin/sh\nexit 0");
    }
}
