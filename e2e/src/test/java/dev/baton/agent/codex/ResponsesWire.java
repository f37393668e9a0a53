package dev.baton.agent.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Step;
import dev.baton.e2e.Wire;

/** OpenAI Responses (Codex CLI): POST …/responses, streamed as response.created … response.completed events. */
public final class ResponsesWire implements Wire {

    @Override
    public boolean serves(String path) {
        return path.contains("/responses");
    }

    @Override
    public Reply reply(Step step, JsonNode json) {
        String responseId = Wire.id("resp_");
        ObjectNode item = Wire.object();
        if (step instanceof Step.ToolCall call) {
            item.put("type", "function_call").put("id", Wire.id("fc_")).put("call_id", Wire.id("call_"))
                    .put("name", call.name()).put("arguments", FakeModel.JSON.valueToTree(call.arguments()).toString())
                    .put("status", "completed");
        } else if (step instanceof Step.FreeformCall call) {
            item.put("type", "custom_tool_call").put("id", Wire.id("ctc_")).put("call_id", Wire.id("call_"))
                    .put("name", call.name()).put("input", call.input()).put("status", "completed");
        } else {
            item.put("type", "message").put("id", Wire.id("msg_")).put("role", "assistant").put("status", "completed");
            item.putArray("content").addObject().put("type", "output_text").put("text", ((Step.Say) step).text())
                    .putArray("annotations");
        }
        String model = json.path("model").asText("gpt-5.5");
        StringBuilder events = new StringBuilder();
        ObjectNode created = Wire.object().put("type", "response.created");
        created.putObject("response").put("id", responseId).put("object", "response").put("status", "in_progress")
                .put("model", model).putArray("output");
        events.append(Wire.sse("response.created", created));
        events.append(Wire.sse("response.output_item.added", Wire.object().put("type", "response.output_item.added")
                .put("output_index", 0).set("item", item)));
        events.append(Wire.sse("response.output_item.done", Wire.object().put("type", "response.output_item.done")
                .put("output_index", 0).set("item", item)));
        ObjectNode completed = Wire.object().put("type", "response.completed");
        ObjectNode response = completed.putObject("response").put("id", responseId).put("object", "response")
                .put("status", "completed").put("model", model);
        response.putArray("output").add(item);
        ObjectNode usage = response.putObject("usage").put("input_tokens", 10).put("output_tokens", 5)
                .put("total_tokens", 15);
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        events.append(Wire.sse("response.completed", completed));
        return Reply.events(events.toString());
    }
}
