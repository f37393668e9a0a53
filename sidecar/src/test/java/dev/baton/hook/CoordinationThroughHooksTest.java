package dev.baton.hook;

import static dev.baton.hook.HookHarness.CLAUDE_SESSION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.negotiation.NegotiationOutcome;
import dev.baton.negotiation.NegotiationRequest;
import dev.baton.negotiation.Urgency;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What agents learn on their next hook call through the real script and the production wiring:
 * requests for files they hold, and the instruction to give way in a deadlock.
 */
class CoordinationThroughHooksTest extends HookFixture {

    private static final String OTHER_SESSION = "7d0e1f2a-0000-4b1c-9d8e-bbbbbbbbbbbb";
    private static final String CART = "src/main/java/shop/Cart.java";
    private static final String ORDER = "src/main/java/shop/Order.java";

    private String edit(String session, String file) throws Exception {
        return harness.sample("claude-pretooluse-edit.json").replace(CLAUDE_SESSION, session).replace(CART, file);
    }

    @Test
    void theHoldersNextHookCallCarriesTheRequestOnceWithTheCommandToAnswerIt() throws Exception {
        harness.run("claude", "PreToolUse", edit(CLAUDE_SESSION, CART));
        ScriptRun denied = harness.run("claude", "PreToolUse", edit(OTHER_SESSION, CART));
        assertThat(denied.json().at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
        String cart = harness.lockOf(CART).orElseThrow().file();
        NegotiationOutcome asked = harness.baton().negotiations().negotiate(
                new NegotiationRequest(OTHER_SESSION, cart, "the tests need the new rounding", Urgency.URGENT, Duration.ZERO));

        ScriptRun next = harness.run("claude", "PreToolUse", edit(CLAUDE_SESSION, ORDER));
        ScriptRun after = harness.run("claude", "PreToolUse", edit(CLAUDE_SESSION, ORDER));

        String context = next.json().at("/hookSpecificOutput/additionalContext").asText();
        assertThat(context).contains(asked.negotiation().id()).contains("the tests need the new rounding")
                .contains("baton respond " + asked.negotiation().id() + " release");
        assertThat(after.silent()).as("the request is told once: %s", after.stdout()).isTrue();
    }

    @Test
    void inADeadlockOfDeniedEditsTheYoungestSessionIsToldToReleaseAndEveryDenialNamesTheCycle() throws Exception {
        harness.run("claude", "PreToolUse", edit(CLAUDE_SESSION, CART));
        harness.run("claude", "PreToolUse", edit(OTHER_SESSION, ORDER));
        harness.run("claude", "PreToolUse", edit(CLAUDE_SESSION, ORDER));

        ScriptRun closing = harness.run("claude", "PreToolUse", edit(OTHER_SESSION, CART));

        String reason = closing.json().at("/hookSpecificOutput/permissionDecisionReason").asText();
        assertThat(reason).contains("deadlock").contains("Cart.java").contains("Order.java");
        assertThat(reason).containsIgnoringCase("release");
        assertThat(harness.holderOf(ORDER)).contains(OTHER_SESSION);
    }
}
