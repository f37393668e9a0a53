package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.shell.ShellGuard;
import dev.baton.state.AuditEntry;
import dev.baton.support.EventClient;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shell commands of two stand-in agents (real processes) in one real git repository: each command goes through
 * the real hook script before and after it, and really runs in between.
 */
class ShellCommandHookTest extends TwoAgentsFixture {

    static final String ORDER = "src/main/java/shop/Order.java";


    @Test
    void sedOnAFileAnotherSessionHoldsIsDeniedNamingFileHolderAndCommandAndTheFileStaysUnchanged() throws Exception {
        assertThat(a.bash("sed -i 's/original/by A/' " + CART).denied()).isFalse();
        assertThat(content(CART)).contains("by A");
        assertThat(harness.holderOf(CART)).contains(a.sessionId());

        StandInAgent.ShellCall call = b.bash("cd src/main/java/shop && sed -i 's/original/by B/' Cart.java");

        assertThat(call.denied()).isTrue();
        assertThat(call.denialReason())
                .contains("Baton blocked this command")
                .contains("`sed -i 's/original/by B/' Cart.java`")
                .contains(CART + ", which is held by claude-code session aaaaaaaa")
                .contains("pid " + a.pid());
        assertThat(content(CART)).contains("by A").doesNotContain("by B");
    }

    @Test
    void aRedirectionIntoAFileAnotherSessionHoldsIsDeniedAndAFreeTargetBecomesTheSessions() throws Exception {
        a.bash("echo 'A was here' >> " + CART);

        StandInAgent.ShellCall denied = b.bash("echo hi > notes.md && echo 'B' > " + CART);
        StandInAgent.ShellCall allowed = b.bash("echo hi > notes.md");

        assertThat(denied.denied()).isTrue();
        assertThat(denied.denialReason()).contains("`echo 'B' > " + CART + "` would write " + CART + ", which is held by");
        assertThat(harness.repo().path("notes.md")).hasContent("hi");
        assertThat(allowed.denied()).isFalse();
        assertThat(harness.holderOf("notes.md")).contains(b.sessionId());
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
    }

    @Test
    void aGlobIsDeniedOnlyWhenWhatItMatchesReachesAHeldFile() throws Exception {
        a.bash("sed -i 's/original/by A/' " + CART);

        StandInAgent.ShellCall noMatch = b.bash("rm -f src/main/java/shop/*.orig");
        StandInAgent.ShellCall match = b.bash("rm -f src/main/java/shop/*.java");
        StandInAgent.ShellCall recursive = b.bash("rm -rf src/main/*");
        StandInAgent.ShellCall flat = b.bash("rm -f src/main/*");

        assertThat(noMatch.denied()).as("a glob that matches no held file").isFalse();
        assertThat(match.denied()).isTrue();
        assertThat(match.denialReason()).contains("`rm -f src/main/java/shop/*.java` would write " + CART + ", which is held by");
        assertThat(recursive.denied()).as("rm -r through a directory the glob matches").isTrue();
        assertThat(flat.denied()).as("without -r, src/main/* removes no file below src/main/java").isFalse();
        assertThat(content(CART)).contains("by A");
    }

    @Test
    void readOnlyCommandsPassSilentlyAndLockNothing() throws Exception {
        StandInAgent.ShellCall call = b.bash("ls -la && git status --short && grep -rn original src | head -3 && cat README.md");

        assertThat(call.pre().silent()).isTrue();
        assertThat(call.post().silent()).isTrue();
        assertThat(harness.lockCount()).isZero();
    }

    @Test
    void aCommandBatonCannotAnalyseThatChangesAHeldFileIsFoundAfterwardsAndBothSessionsAreTold() throws Exception {
        a.bash("sed -i 's/original/by A/' " + CART);
        byte[] byA = java.nio.file.Files.readAllBytes(harness.repo().path(CART));
        String endpoint = harness.home().readEndpoint().orElseThrow();
        EventClient events = EventClient.connect(Integer.parseInt(endpoint.substring(endpoint.indexOf(':') + 1)),
                harness.home().readToken().orElseThrow(), null, true);

        StandInAgent.ShellCall call = b.bash("python3 -c \"open('" + CART + "', 'w').write('by B\\n')\"");

        assertThat(call.pre().silent()).isTrue(); // cannot be analysed: it runs, and is checked afterwards
        assertThat(content(CART)).isEqualTo("by B\n");
        assertThat(call.postContext()).contains("changed the working copy of " + CART)
                .contains("which session aaaaaaaa holds; it has been told");
        List<AuditEntry> conflicts = harness.baton().ledger().store().auditSince(0, 10_000).stream()
                .filter(entry -> entry.action().equals(ShellGuard.CONFLICT_ACTION)).toList();
        assertThat(conflicts).singleElement().satisfies(entry -> {
            assertThat(entry.sessionId()).isEqualTo(b.sessionId());
            assertThat(entry.file()).isEqualTo(harness.repo().path(CART).toString());
            assertThat(entry.actor()).isEqualTo(a.sessionId());
            assertThat(entry.reason()).contains("python3 -c");
        });
        JsonNode event = events.awaitEvent("shell.write_conflict").path("data");
        events.close();
        assertThat(event.path("file").asText()).isEqualTo(harness.repo().path(CART).toString());
        assertThat(event.path("session_id").asText()).isEqualTo(b.sessionId());
        assertThat(event.path("holder").asText()).isEqualTo(a.sessionId());
        assertThat(event.path("command").asText()).startsWith("python3 -c");
        // The end of A's own command kept what it wrote: the version the dashboard offers to put back.
        assertThat(event.path("version").asText()).isEqualTo(java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("SHA-256").digest(byA)));
        assertThat(event.path("restore").asText()).isEqualTo("baton restore " + harness.repo().path(CART));
        ScriptRun next = a.announce("git status", "toolu_next");
        assertThat(next.json().at("/hookSpecificOutput/additionalContext").asText())
                .contains("the working copy of your file " + CART + " was changed by session bbbbbbbb's command `python3 -c");
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
    }

    @Test
    void aFileAnUnanalysedCommandCreatesIsClaimedForTheSessionThatRanIt() throws Exception {
        StandInAgent.ShellCall call = b.bash("eval 'echo generated > gen.txt'");

        assertThat(call.pre().silent()).isTrue();
        assertThat(call.post().silent()).isTrue();
        assertThat(harness.holderOf("gen.txt")).contains(b.sessionId());
    }

    @Test
    void repoWideDiscardsAreDeniedWhileAnotherSessionHoldsDirtyWorkAndNothingIsLost() throws Exception {
        a.bash("sed -i 's/original/by A/' " + CART);
        a.bash("echo 'new work' > src/main/java/shop/Coupon.java");

        for (String command : List.of("git checkout .", "git checkout -- src", "git restore .", "git reset --hard",
                "git stash", "git stash -u", "git clean -fd", "git checkout -f", "cd src && git restore main")) {
            StandInAgent.ShellCall call = b.bash(command);

            assertThat(call.denied()).as(command).isTrue();
            assertThat(call.denialReason()).as(command).contains("`" + command.replace("cd src && ", "") + "`")
                    .contains("held by claude-code session aaaaaaaa");
        }
        assertThat(content(CART)).contains("by A");
        assertThat(harness.repo().path("src/main/java/shop/Coupon.java")).hasContent("new work");
    }

    @Test
    void indexChangesToAnotherSessionsFileAreDeniedHoweverGitIsSpelled() throws Exception {
        a.bash("sed -i 's/original/by A/' " + CART + " && git add " + CART);
        String staged = harness.repo().git("diff", "--cached", "--name-only").strip();

        for (String command : List.of("git rm --cached " + CART, "git rm --ca -q " + CART, "git restore --staged .",
                "git restore --sta src", "git reset", "git reset -- " + CART, "git reset HEAD~0 src",
                "git -c alias.unstage='reset --' unstage " + CART, "git reset --har", "git read-tree -u -m HEAD",
                "git checkout -- 'src/main/java/shop/*.java'", "git checkout -- ':(glob)**/Cart.java'",
                "git checkout-index -f -a", "git update-index --force-remove " + CART)) {
            StandInAgent.ShellCall call = b.bash(command);

            assertThat(call.denied()).as(command).isTrue();
            assertThat(call.denialReason()).as(command).contains("held by claude-code session aaaaaaaa");
        }
        assertThat(harness.repo().git("diff", "--cached", "--name-only").strip()).isEqualTo(staged);
        assertThat(content(CART)).contains("by A");
    }

    @Test
    void aDiscardPassesWhenNoOtherSessionHoldsDirtyWork() throws Exception {
        b.bash("sed -i 's/original/by B/' " + ORDER);
        a.bash("sed -n 1p " + CART); // A holds nothing dirty

        StandInAgent.ShellCall call = b.bash("git checkout .");

        assertThat(call.denied()).isFalse();
        assertThat(content(ORDER)).doesNotContain("by B");
    }

    @Test
    void stagingOrCommittingAnotherSessionsFilesIsDeniedWithTheExactCommandForOwnFiles() throws Exception {
        a.bash("sed -i 's/original/by A/' " + CART);
        b.bash("sed -i 's/original/by B/' " + ORDER);

        StandInAgent.ShellCall addAll = b.bash("git add -A");
        StandInAgent.ShellCall commitAll = b.bash("git commit -am 'wip'");

        assertThat(addAll.denied()).isTrue();
        assertThat(addAll.denialReason()).contains("`git add -A` would stage files other sessions hold: " + CART)
                .contains("Stage only your own files instead: `git add " + ORDER + "`");
        assertThat(commitAll.denied()).isTrue();
        assertThat(commitAll.denialReason()).contains("`git commit -am 'wip'` would commit files other sessions hold")
                .contains("`git commit -m \"…\" -- " + ORDER + "`");
        assertThat(harness.repo().git("diff", "--cached", "--name-only")).isEmpty();

        assertThat(b.bash("git add " + ORDER).denied()).isFalse();
        assertThat(b.bash("git commit -q -m 'order by B'").denied()).isFalse();
        assertThat(harness.repo().git("show", "--name-only", "--format=", "HEAD").strip()).isEqualTo(ORDER);
        assertThat(content(CART)).contains("by A");
    }

    @Test
    void aPlainCommitIsDeniedWhenAnotherSessionsHeldFileIsStaged() throws Exception {
        a.bash("sed -i 's/original/by A/' " + CART + " && git add " + CART);
        b.bash("sed -i 's/original/by B/' " + ORDER + " && git add " + ORDER);

        StandInAgent.ShellCall commit = b.bash("git commit -m 'mine'");

        assertThat(commit.denied()).isTrue();
        assertThat(commit.denialReason()).contains("would commit files other sessions staged and hold: " + CART)
                .contains("-- " + ORDER + "`");
    }

    @Test
    void indexWritingGitCommandsOfTwoSessionsTakeTurnsUntilPostToolUseOrStop() throws Exception {
        a.bash("echo a > a.txt");
        b.bash("echo b > b.txt");
        assertThat(a.announce("git add a.txt", "toolu_a1").silent()).isTrue(); // A's git add is running

        ScriptRun blocked = b.announce("git add b.txt", "toolu_b1");

        assertThat(blocked.json().at("/hookSpecificOutput/permissionDecisionReason").asText())
                .contains("Baton held back `git add b.txt`: another session's git command is writing the index of "
                        + harness.repo().root())
                .contains("git index: git add a.txt").contains("pid " + a.pid());
        a.finish("git add a.txt", "toolu_a1");
        assertThat(b.announce("git add b.txt", "toolu_b2").silent()).isTrue();
        b.stop(); // PostToolUse never came: the turn's end frees the index
        assertThat(a.announce("git commit -m x", "toolu_a2").silent()).isTrue();
    }

    @Test
    void aBranchSwitchIsDeniedWhenItWouldRewriteAFileAnotherSessionHolds() throws Exception {
        harness.repo().git("checkout", "-q", "-b", "other");
        harness.repo().write(ORDER, "changed on the other branch\n");
        harness.repo().git("commit", "-q", "-am", "other");
        harness.repo().git("checkout", "-q", "main");
        a.bash("touch " + ORDER); // A holds Order.java, clean so far

        StandInAgent.ShellCall call = b.bash("git checkout other");

        assertThat(call.denied()).isTrue();
        assertThat(call.denialReason()).contains("`git checkout other` would rewrite files other sessions hold: " + ORDER);
        assertThat(harness.repo().git("rev-parse", "--abbrev-ref", "HEAD").strip()).isEqualTo("main");
    }
}
