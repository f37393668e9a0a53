package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A {@link HookFixture} with two stand-in Claude Code agents (real processes, sessions a and b) in its repository:
 * where the shell tests start, one agent holding work and the other running commands against it.
 */
abstract class TwoAgentsFixture extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";

    StandInAgent a;
    StandInAgent b;

    @BeforeEach
    void startAgents() throws Exception {
        a = StandInAgent.start(harness, "a", "aaaaaaaa-1111-4000-8000-000000000001");
        b = StandInAgent.start(harness, "b", "bbbbbbbb-2222-4000-8000-000000000002");
    }

    @AfterEach
    void stopAgents() throws Exception {
        a.close();
        b.close();
    }

    String content(String file) throws Exception {
        return Files.readString(harness.repo().path(file));
    }

    /** A holds Cart.java with a change of its own, made by a shell command through the wrapper. */
    void aHoldsCart() throws Exception {
        StandInAgent.WrappedCall call = a.bashWrapped("sed -i 's/original/by A/' " + CART);
        assertThat(call.denied()).isFalse();
        assertThat(content(CART)).as(call.command().stderr()).contains("by A");
        assertThat(harness.holderOf(CART)).contains(a.sessionId());
    }
}
