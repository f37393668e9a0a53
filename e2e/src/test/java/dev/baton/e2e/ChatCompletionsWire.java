package dev.baton.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** OpenAI Chat Completions (Copilot CLI's provider mode): POST …/chat/completions, chunks, then [DONE]. */
public final class ChatCompletionsWire implements Wire {

    @Override
    public boolean serves(String path) {
        return path.contains("/chat/completions");
    }

    @Override
    public Reply reply(Step step, JsonNode json) {
        String id = Wire.id("chatcmpl-");
        String model = json.path("model").asText("gpt-5.4");
        ObjectNode delta = Wire.object().put("role", "assistant");
        String finish;
        if (step instanceof Step.ToolCall call) {
            delta.putNull("content");
            ObjectNode toolCall = delta.putArray("tool_calls").addObject().put("index", 0)
                    .put("id", Wire.id("call_")).put("type", "function");
            toolCall.putObject("function").put("name", call.name())
                    .put("arguments", FakeModel.JSON.valueToTree(call.arguments()).toString());
            finish = "tool_calls";
        } else if (step instanceof Step.Say say) {
            delta.put("content", say.text());
            finish = "stop";
        } else if (step instanceof Step.FreeformCall call) {
            // A freeform ("custom") tool, as Copilot offers apply_patch to GPT-5 models.
            delta.putNull("content");
            ObjectNode toolCall = delta.putArray("tool_calls").addObject().put("index", 0)
                    .put("id", Wire.id("call_")).put("type", "custom");
            toolCall.putObject("custom").put("name", call.name()).put("input", call.input());
            finish = "tool_calls";
        } else {
            throw new IllegalArgumentException("unknown step " + step);
        }
        if (!json.path("stream").asBoolean(false)) {
            ObjectNode completion = Wire.object().put("id", id).put("object", "chat.completion").put("created", 0)
                    .put("model", model);
            ObjectNode choice = completion.putArray("choices").addObject().put("index", 0).put("finish_reason", finish);
            choice.set("message", delta);
            completion.set("usage", usage());
            return Reply.json(200, completion.toString());
        }
        StringBuilder events = new StringBuilder();
        events.append(Wire.sse(null, chunk(id, model).set("choices", FakeModel.JSON.createArrayNode()
                .add(Wire.object().put("index", 0).putNull("finish_reason").set("delta", delta)))));
        ObjectNode last = chunk(id, model);
        last.putArray("choices").addObject().put("index", 0).put("finish_reason", finish).putObject("delta");
        last.set("usage", usage());
        events.append(Wire.sse(null, last));
        events.append("data: [DONE]\n\n");
        return Reply.events(events.toString());
    }

    private static ObjectNode chunk(String id, String model) {
        return Wire.object().put("id", id).put("object", "chat.completion.chunk").put("created", 0).put("model", model);
    }

    private static ObjectNode usage() {
        return Wire.object().put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
    }
}
