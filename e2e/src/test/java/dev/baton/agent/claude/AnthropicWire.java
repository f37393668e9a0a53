package dev.baton.agent.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Step;
import dev.baton.e2e.Wire;

/** Anthropic Messages (Claude Code): POST /v1/messages, streamed as message_start … message_stop events. */
public final class AnthropicWire implements Wire {

    @Override
    public boolean serves(String path) {
        return path.contains("/messages");
    }

    @Override
    public boolean isTurn(FakeModel.Request request, JsonNode json) {
        String path = request.path();
        return (path.equals("/v1/messages") || path.startsWith("/v1/messages?")) && Wire.hasTools(json);
    }

    @Override
    public Reply side(FakeModel.Request request, JsonNode json) {
        if (request.path().contains("count_tokens")) {
            return Reply.json(200, "{\"input_tokens\":10}");
        }
        return reply(Step.say("ok"), json);
    }

    @Override
    public Reply reply(Step step, JsonNode json) {
        ObjectNode block = Wire.object();
        ObjectNode delta = Wire.object();
        String stopReason;
        if (step instanceof Step.ToolCall call) {
            block.put("type", "tool_use").put("id", Wire.id("toolu_")).put("name", call.name())
                    .set("input", Wire.object());
            delta.put("type", "input_json_delta").put("partial_json", FakeModel.JSON.valueToTree(call.arguments()).toString());
            stopReason = "tool_use";
        } else if (step instanceof Step.Say say) {
            block.put("type", "text").put("text", "");
            delta.put("type", "text_delta").put("text", say.text());
            stopReason = "end_turn";
        } else {
            throw new IllegalArgumentException("Claude has no freeform tools");
        }
        String model = json.path("model").asText("claude-sonnet-4-5");
        ObjectNode usage = Wire.object().put("input_tokens", 10).put("output_tokens", 5);
        if (!json.path("stream").asBoolean(false)) {
            ObjectNode message = message(model, usage);
            ObjectNode content = block.deepCopy();
            if (step instanceof Step.ToolCall call) {
                content.set("input", FakeModel.JSON.valueToTree(call.arguments()));
            } else {
                content.put("text", ((Step.Say) step).text());
            }
            message.putArray("content").add(content);
            message.put("stop_reason", stopReason);
            return Reply.json(200, message.toString());
        }
        StringBuilder events = new StringBuilder();
        events.append(Wire.sse("message_start", Wire.object().put("type", "message_start").set("message", message(model, usage))));
        events.append(Wire.sse("content_block_start", Wire.object().put("type", "content_block_start").put("index", 0)
                .set("content_block", block)));
        events.append(Wire.sse("content_block_delta", Wire.object().put("type", "content_block_delta").put("index", 0)
                .set("delta", delta)));
        events.append(Wire.sse("content_block_stop", Wire.object().put("type", "content_block_stop").put("index", 0)));
        ObjectNode messageDelta = Wire.object().put("type", "message_delta");
        messageDelta.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
        messageDelta.putObject("usage").put("output_tokens", 5);
        events.append(Wire.sse("message_delta", messageDelta));
        events.append(Wire.sse("message_stop", Wire.object().put("type", "message_stop")));
        return Reply.events(events.toString());
    }

    private static ObjectNode message(String model, ObjectNode usage) {
        ObjectNode message = Wire.object().put("id", Wire.id("msg_")).put("type", "message").put("role", "assistant")
                .put("model", model);
        message.putArray("content");
        message.putNull("stop_reason").putNull("stop_sequence");
        message.set("usage", usage);
        return message;
    }
}
