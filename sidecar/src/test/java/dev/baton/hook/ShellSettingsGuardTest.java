package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentDialects;
import dev.baton.shell.ShellGuard;
import dev.baton.shell.ShellSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The settings of the shell checks, each read from an environment as the sidecar reads its own, at work. */
class ShellSettingsGuardTest extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";

    StandInAgent a;
    StandInAgent b;
    Path repo;

    @BeforeEach
    void aHoldsCart() throws Exception {
        a = StandInAgent.start(harness, "a", "aaaaaaaa-1111-4000-8000-000000000001");
        b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002");
        a.bash("sed -i 's/original/by A/' " + CART);
        b.bash("true"); // registers B
        repo = harness.repo().root();
    }

    @AfterEach
    void stopAgents() {
        a.close();
        b.close();
    }

    private ShellGuard guard(String... env) {
        return new ShellGuard(harness.baton(), ShellSettings.fromEnvironment(HookHarness.env(env)),
                LockScope.defaults()::locks, PatchPaths::of, "test-host",
                AgentDialects.ALL::reportsShellCommandEnd);
    }

    @Test
    void aCommandOnTheDenyListIsDeniedWhateverItWrites() {
        ShellGuard guard = guard("BATON_SHELL_DENY", "git push --force; rm -rf /");

        ShellGuard.Decision decision = guard.before(b.sessionId(), null, "git status && git push --force origin main", repo);

        assertThat(decision).isInstanceOf(ShellGuard.Deny.class);
        assertThat(((ShellGuard.Deny) decision).reason())
                .contains("Baton denies `git push --force origin main`: it is on this machine's deny list (BATON_SHELL_DENY)");
        assertThat(guard.before(b.sessionId(), null, "git push origin main", repo)).isInstanceOf(ShellGuard.Proceed.class);
    }

    @Test
    void aCommandOnTheAllowListPassesUnchecked() {
        ShellGuard checked = guard();
        ShellGuard allowing = guard("BATON_SHELL_ALLOW", "make lint;sed -i");

        assertThat(checked.before(b.sessionId(), null, "sed -i 's/a/b/' " + CART, repo)).isInstanceOf(ShellGuard.Deny.class);
        assertThat(allowing.before(b.sessionId(), null, "sed -i 's/a/b/' " + CART, repo)).isInstanceOf(ShellGuard.Proceed.class);
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
    }

    @Test
    void theShellChecksCanBeTurnedOff() {
        ShellGuard off = guard("BATON_SHELL", "off");

        assertThat(off.before(b.sessionId(), null, "git checkout .", repo)).isInstanceOf(ShellGuard.Proceed.class);
    }

    @Test
    void theCheckAfterTheCommandCanBeTurnedOff() throws Exception {
        ShellGuard on = guard();
        ShellGuard off = guard("BATON_SHELL_AFTER_CHECK", "0");

        off.before(b.sessionId(), "t1", "eval 'echo x > off.txt'", repo);
        Files.writeString(repo.resolve("off.txt"), "x\n"); // what the command does
        off.after(b.sessionId(), "t1");
        on.before(b.sessionId(), "t2", "eval 'echo x > on.txt'", repo);
        Files.writeString(repo.resolve("on.txt"), "x\n");
        on.after(b.sessionId(), "t2");

        assertThat(harness.holderOf("off.txt")).isEmpty();
        assertThat(harness.holderOf("on.txt")).contains(b.sessionId());
    }

    @Test
    void settingsOutOfRangeAreRefusedWithTheirName() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ShellSettings.fromEnvironment(
                        Map.of("BATON_SHELL_INDEX_WAIT_MS", "soon")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BATON_SHELL_INDEX_WAIT_MS must be a number of milliseconds, was 'soon'");
    }
}
