package dev.baton.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.claude.Claude;
import dev.baton.agent.copilot.Copilot;
import java.nio.file.Path;
import java.util.Map;

/**
 * An agent CLI as {@link AgentEditBench} drives it: its file-creating tool, one conversation started with a
 * prompt and ended the way the CLI ends, and the tool result it sent the model.
 */
enum BenchedAgent {

    CLAUDE_CODE("Claude Code") {
        @Override
        Step create(Path file, String content) {
            return Step.call("Write", Map.of("file_path", file.toString(), "content", content));
        }

        @Override
        void converse(Machine machine, FakeModel model, Map<String, String> env, Step.Pause pause, Runnable atPause) {
            try (Claude claude = new Claude(machine, model, env)) {
                claude.promptWithoutWaiting("Create the files.");
                pause.awaitReached(AgentEditBench.conversation(model));
                atPause.run();
                pause.resume();
                claude.awaitTurnEnd();
                claude.end();
            }
        }

        @Override
        String toolResult(FakeModel.Request request) {
            // The result is in the last user message but one when Claude Code adds a reminder after it.
            JsonNode messages = request.json().path("messages");
            for (int i = messages.size() - 1; i >= 0; i--) {
                for (JsonNode part : messages.path(i).path("content")) {
                    if ("tool_result".equals(part.path("type").asText())) {
                        return (part.path("is_error").asBoolean() ? "error: " : "") + part.path("content");
                    }
                }
            }
            return "(no tool result)";
        }
    },

    /** GPT-4.1 behind Copilot's provider mode, so the tool is {@code create}. */
    COPILOT_CLI("Copilot CLI") {
        @Override
        Step create(Path file, String content) {
            return Step.call("create", Map.of("path", file.toString(), "file_text", content));
        }

        @Override
        void converse(Machine machine, FakeModel model, Map<String, String> env, Step.Pause pause, Runnable atPause) {
            try (Copilot copilot = new Copilot(machine, model, "gpt-4.1", "Create the files.", env)) {
                pause.awaitReached(AgentEditBench.conversation(model));
                atPause.run();
                pause.resume();
                assertThat(copilot.awaitExit()).as(copilot.process.output()).isZero();
            }
        }

        @Override
        String toolResult(FakeModel.Request request) {
            JsonNode messages = request.json().path("messages");
            for (int i = messages.size() - 1; i >= 0; i--) {
                if ("tool".equals(messages.path(i).path("role").asText())) {
                    return messages.path(i).path("content").toString();
                }
            }
            return "(no tool result)";
        }
    };

    final String label;

    BenchedAgent(String label) {
        this.label = label;
    }

    /** The tool call that creates {@code file} with {@code content}. */
    abstract Step create(Path file, String content);

    /**
     * Runs one conversation in the machine's repository on the model's script, which ends with {@code pause}
     * before its last answer: {@code atPause} runs while the session is alive after its last edit. Returns once
     * the CLI has ended the session.
     */
    abstract void converse(Machine machine, FakeModel model, Map<String, String> env, Step.Pause pause,
            Runnable atPause);

    /** The result of the last tool call, as the CLI sent it back in this request. */
    abstract String toolResult(FakeModel.Request request);
}
