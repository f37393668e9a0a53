package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.negotiation.NegotiationRequest;
import dev.baton.negotiation.Urgency;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A denied session that has asked for the file already is shown its request, not told to ask again. */
class PendingNegotiationHookTest extends HookFixture {

    private static final String OTHER = "b7e4d2c0-1f3a-4c5b-9e8d-7a6b5c4d3e2f";

    private String otherEditsCart() throws Exception {
        return harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, OTHER))
                .json().at("/hookSpecificOutput/permissionDecisionReason").asText();
    }

    @Test
    void aDeniedSessionWithAPendingRequestSeesItAndItsTimeLeftInsteadOfTheAdviceToNegotiate() throws Exception {
        harness.run("claude", "PreToolUse", harness.sample("claude-pretooluse-edit.json"));
        assertThat(otherEditsCart()).contains("ask for it with `baton negotiate src/main/java/shop/Cart.java");
        String id = harness.baton().negotiations().negotiate(new NegotiationRequest(OTHER,
                harness.repo().path("src/main/java/shop/Cart.java").toString(), "the tax fix needs it", Urgency.NORMAL,
                Duration.ZERO)).negotiation().id();

        String reason = otherEditsCart();

        assertThat(reason)
                .startsWith("Baton blocked this edit: src/main/java/shop/Cart.java is held by claude-code session 3f2a9c1e")
                .contains("you asked for it already (negotiation " + id + ", pending, asked ")
                .containsPattern("`baton force-release src/main/java/shop/Cart\\.java` in (9|10) min\\. ")
                .doesNotContain("baton negotiate");
    }
}
