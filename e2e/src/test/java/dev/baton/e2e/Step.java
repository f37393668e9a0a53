package dev.baton.e2e;

import java.util.Map;

/** One answer of the scripted model: call a tool, or say something and end the turn. */
public sealed interface Step permits Step.ToolCall, Step.FreeformCall, Step.Say, Step.Pause {

    /** A function call with JSON arguments, as every wire protocol has it. */
    record ToolCall(String name, Map<String, ?> arguments) implements Step {}

    /** A freeform (grammar) tool call with raw text input: Codex's apply_patch on the Responses API. */
    record FreeformCall(String name, String input) implements Step {}

    /** Plain text; the agent's turn ends with it. */
    record Say(String text) implements Step {}

    /**
     * Not an answer: the model holds its next answer until the test {@link #resume()}s it, so the test can look
     * at a session that is alive between two tool calls.
     */
    public record Pause(java.util.concurrent.CountDownLatch reached, java.util.concurrent.CountDownLatch released)
            implements Step {
        public Pause() {
            this(new java.util.concurrent.CountDownLatch(1), new java.util.concurrent.CountDownLatch(1));
        }

        /** Waits until the agent asked for the answer after this pause. */
        public void awaitReached() {
            awaitReached(AgentProcess.TURN);
        }

        /** Waits at most {@code atMost}, for a script of many steps before the pause. */
        public void awaitReached(java.time.Duration atMost) {
            org.awaitility.Awaitility.await("the agent to ask the model again").atMost(atMost)
                    .until(() -> reached.getCount() == 0);
        }

        public void resume() {
            released.countDown();
        }
    }

    static Step call(String name, Map<String, ?> arguments) {
        return new ToolCall(name, arguments);
    }

    static Step freeform(String name, String input) {
        return new FreeformCall(name, input);
    }

    static Step say(String text) {
        return new Say(text);
    }
}
