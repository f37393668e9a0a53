package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Shell commands run as Claude Code runs them once Baton is its CLAUDE_CODE_SHELL_PREFIX: two stand-in agents (real
 * processes) in one real git repository, every command through the real hook before and after it and through the
 * real wrapper ({@code baton-shell}) while it runs. What the checks before a
 * command cannot read, the kernel stops: a file another session holds is read-only for the command.
 */
class ShellEnforcementTest extends TwoAgentsFixture {

    static final String ORDER = "src/main/java/shop/Order.java";


    @Test
    void aWriteNoCheckBeforeTheCommandCanReadFailsOnTheHeldFileAndTheAgentReadsWhy() throws Exception {
        aHoldsCart();

        StandInAgent.WrappedCall call = b.bashWrapped("python3 -c \"open('" + CART + "', 'w').write('by B\\n')\"");

        assertThat(call.denied()).as("no check before the command can read what python writes").isFalse();
        assertThat(call.command().exit()).isNotZero();
        assertThat(call.command().stderr()).contains("Read-only file system")
                .contains("Baton: files other sessions hold were read-only while this command ran: " + CART
                        + " (held by claude-code session aaaaaaaa, pid " + a.pid() + ")")
                .contains("baton negotiate " + CART);
        assertThat(content(CART)).contains("by A").doesNotContain("by B");
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
    }

    @Test
    void theSameCommandStillWritesEveryFileNoOtherSessionHolds() throws Exception {
        aHoldsCart();

        StandInAgent.WrappedCall call = b.bashWrapped("python3 -c \"open('notes.md', 'w').write('B\\n')\" && eval 'echo B >> "
                + ORDER + "'");

        assertThat(call.command().exit()).as(call.command().stderr()).isZero();
        assertThat(call.command().stderr()).isEmpty();
        assertThat(harness.repo().path("notes.md")).hasContent("B");
        assertThat(content(ORDER)).endsWith("B\n");
    }

    @Test
    void theHoldersOwnCommandsWriteItsFiles() throws Exception {
        aHoldsCart();

        StandInAgent.WrappedCall call = a.bashWrapped("python3 -c \"open('" + CART + "', 'a').write('more by A\\n')\"");

        assertThat(call.command().exit()).as(call.command().stderr()).isZero();
        assertThat(content(CART)).endsWith("more by A\n");
    }

    @Test
    void hardLinksMadeBeforeTheFileWasTakenAreReadOnlyTooWhereverTheyAreInTheRepository() throws Exception {
        Path cart = harness.repo().path(CART);
        Path beside = Files.createLink(cart.resolveSibling("Cart.copy"), cart);
        Path elsewhere = Files.createLink(harness.repo().path("docs-cart.txt"), cart);
        a.write(CART, "by A\n"); // the Write tool writes in place: the links stay links, and only Cart.java is taken
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
        assertThat(harness.holderOf("docs-cart.txt")).isEmpty();

        StandInAgent.WrappedCall call = b.bashWrapped("python3 -c \"open('" + beside + "', 'a').write('x')\";"
                + " python3 -c \"import os; os.truncate('" + elsewhere + "', 0)\"; true");

        assertThat(call.denied()).as(call.denied() ? call.denialReason() : "").isFalse();
        assertThat(call.command().stderr()).contains("Read-only file system");
        assertThat(content(CART)).isEqualTo("by A\n");
        assertThat(Files.isSameFile(beside, cart) && Files.isSameFile(elsewhere, cart)).isTrue();
    }

    @Test
    void theCommandCannotUndoTheReadOnlyBindNorLeaveItsNamespace() throws Exception {
        aHoldsCart();
        Path cart = harness.repo().path(CART);
        String attempts = String.join("; ",
                "umount " + cart,
                "umount -l " + cart,
                "mount -o remount,rw,bind " + cart,
                "mount --bind /dev/null " + cart,
                "unshare -Urm sh -c 'umount " + cart + "; echo x >> " + cart + "'",
                "unshare -Um sh -c 'umount " + cart + "; echo x >> " + cart + "'",
                "nsenter -t 1 -m sh -c 'echo x >> " + cart + "'",
                "echo x >> /proc/1/root" + cart,
                "echo x >> /proc/$PPID/root" + cart,
                "ln " + cart + " /tmp/baton-hard-link-$$",
                "setsid sh -c 'echo x >> " + cart + "'",
                "echo x >> " + cart,
                "true");

        StandInAgent.WrappedCall call = b.bashWrapped("eval \"" + attempts.replace("\"", "\\\"") + "\"");

        assertThat(call.command().exit()).as(call.command().stderr()).isZero();
        assertThat(content(CART)).contains("by A").doesNotContain("x\n");
        assertThat(call.command().stderr()).contains("Read-only file system");
    }

    @Test
    void withoutUserNamespacesTheCommandRunsSayingSoAndTheCheckAfterItRecordsTheChangeAndTellsBothSessions() throws Exception {
        aHoldsCart();
        try (StandInAgent confined = StandInAgent.startWithoutUserNamespaces(harness, "c", "cccccccc-3333-4000-8000-000000000003")) {
            StandInAgent.WrappedCall call = confined.bashWrapped("python3 -c \"open('" + CART + "', 'w').write('by C\\n')\"");

            assertThat(call.command().stderr()).contains("Baton could not make the files other sessions hold read-only"
                    + " for this command (unshare: No space left on device); it runs with Baton's checks before and after it only.");
            assertThat(content(CART)).isEqualTo("by C\n");
            assertThat(call.postContext()).contains("changed the working copy of " + CART)
                    .contains("which session aaaaaaaa holds; it has been told");
            assertThat(a.announce("git status", "toolu_next").json().at("/hookSpecificOutput/additionalContext").asText())
                    .contains("the working copy of your file " + CART + " was changed by session cccccccc's command `python3 -c");
        }
    }

    @Test
    void aCommandThatOnlyRunsSudoRunsWithoutTheNamespaceWhereSudoCouldNotWorkAndSaysSo() throws Exception {
        aHoldsCart();

        StandInAgent.WrappedCall alone = b.bashWrapped("sudo -n true");
        StandInAgent.WrappedCall beside = b.bashWrapped("sudo -n true; python3 -c \"open('" + CART + "', 'w').write('by B\\n')\"");

        assertThat(alone.command().stderr()).contains("Baton runs this command without making the files other sessions"
                + " hold read-only: it runs a program that needs privileges");
        assertThat(beside.command().stderr()).doesNotContain("without making").contains("Read-only file system");
        assertThat(content(CART)).contains("by A");
    }

    @Test
    void anAgentThatTurnedBatonOffRunsItsCommandsAsTheyAre() throws Exception {
        aHoldsCart();
        try (StandInAgent off = StandInAgent.start(harness, "d", "dddddddd-4444-4000-8000-000000000004",
                java.util.Map.of("CLAUDE_FILE_LOCK", "0"))) {
            ScriptRun run = off.runWrapped("python3 -c \"open('" + CART + "', 'w').write('by D\\n')\"", null);

            assertThat(run.exit()).as(run.stderr()).isZero();
            assertThat(content(CART)).isEqualTo("by D\n");
        }
    }

    @Test
    void batonsOwnHookRunThroughThePrefixIsStartedAtOnceWithItsInput() throws Exception {
        aHoldsCart();
        String payload = b.payload("PreToolUse", "echo B > " + CART, "toolu_prefixed");

        ScriptRun plain = b.prefixed(HookHarness.SCRIPT + " claude PreToolUse", payload, java.util.Map.of());
        ScriptRun quoted = b.prefixed("'" + HookHarness.SCRIPT + "' claude PreToolUse", payload, java.util.Map.of());

        for (ScriptRun run : java.util.List.of(plain, quoted)) {
            assertThat(run.exit()).as(run.stderr()).isZero();
            assertThat(run.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
            assertThat(run.json().at("/hookSpecificOutput/permissionDecisionReason").asText()).contains(CART + ", which is held by");
        }
    }

    @Test
    void theCommandKeepsItsExitStatusInputSignalsAndLocaleWithFilesHeldAndWithout() throws Exception {
        String probe = "printf 'in:'; cat; echo; yes | head -n 1; echo \"pipe:${PIPESTATUS[*]}\"; echo \"lc:${LC_ALL-unset}\";"
                + " test -e /proc/self/fd/3 && echo fd3:open; exit 7";
        for (boolean held : new boolean[] {false, true}) {
            if (held) {
                aHoldsCart();
            }
            ScriptRun run = b.runWrapped(probe, "hello", java.util.Map.of("LC_ALL", "C.UTF-8"));

            assertThat(run.exit()).as("held: %s, stderr: %s", held, run.stderr()).isEqualTo(7);
            assertThat(run.stdout()).as("held: %s", held).contains("in:hello").contains("y\n")
                    .contains("pipe:141 0").contains("lc:C.UTF-8").contains("fd3:open");
        }
    }
}
