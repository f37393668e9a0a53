package dev.baton.agent.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.e2e.FakeModel;
import dev.baton.e2e.Step;
import dev.baton.e2e.Wire;

/**
 * Gemini API (Gemini CLI): POST /v1beta/models/M:streamGenerateContent?alt=sse for turns. Its side requests
 * (next-speaker check, routing) are :generateContent calls that want JSON text, and :countTokens.
 */
public final class GeminiWire implements Wire {

    @Override
    public boolean serves(String path) {
        return path.contains(":streamGenerateContent") || path.contains(":generateContent")
                || path.contains(":countTokens") || path.startsWith("/v1beta");
    }

    @Override
    public boolean isTurn(FakeModel.Request request, JsonNode json) {
        return request.path().contains(":streamGenerateContent") && Wire.hasTools(json);
    }

    @Override
    public Reply side(FakeModel.Request request, JsonNode json) {
        if (request.path().contains(":countTokens")) {
            return Reply.json(200, "{\"totalTokens\":10}");
        }
        if (!request.path().contains("GenerateContent") && !request.path().contains("generateContent")) {
            return Reply.json(200, "{\"models\":[]}");
        }
        // The next-speaker check and the model router ask for JSON of a schema: fill it in ("user" speaks next).
        JsonNode config = json.path("generationConfig");
        JsonNode schema = config.has("responseJsonSchema") ? config.get("responseJsonSchema") : config.path("responseSchema");
        String text = schema.isMissingNode() ? "ok" : fill(schema).toString();
        return answer(request, candidate(Wire.object().put("text", text)));
    }

    @Override
    public Reply reply(Step step, JsonNode json) {
        ObjectNode part = Wire.object();
        if (step instanceof Step.ToolCall call) {
            part.putObject("functionCall").put("name", call.name()).set("args", FakeModel.JSON.valueToTree(call.arguments()));
        } else if (step instanceof Step.Say say) {
            part.put("text", say.text());
        } else {
            throw new IllegalArgumentException("Gemini has no freeform tools");
        }
        return Reply.events(Wire.sse(null, candidate(part)));
    }

    /** A value of the JSON schema: every property present, strings say "user", numbers are 1. */
    private static JsonNode fill(JsonNode schema) {
        String type = schema.path("type").asText("string").toLowerCase(java.util.Locale.ROOT);
        switch (type) {
            case "object": {
                ObjectNode value = Wire.object();
                schema.path("properties").properties().forEach(p -> value.set(p.getKey(), fill(p.getValue())));
                return value;
            }
            case "array":
                return FakeModel.JSON.createArrayNode();
            case "integer":
            case "number":
                return FakeModel.JSON.getNodeFactory().numberNode(1);
            case "boolean":
                return FakeModel.JSON.getNodeFactory().booleanNode(false);
            default:
                return schema.path("enum").isArray() && schema.path("enum").size() > 0
                        ? schema.path("enum").get(0) : FakeModel.JSON.getNodeFactory().textNode("user");
        }
    }

    private static Reply answer(FakeModel.Request request, ObjectNode body) {
        return request.path().contains(":streamGenerateContent")
                ? Reply.events(Wire.sse(null, body))
                : Reply.json(200, body.toString());
    }

    private static ObjectNode candidate(ObjectNode part) {
        ObjectNode body = Wire.object();
        ObjectNode candidate = body.putArray("candidates").addObject().put("finishReason", "STOP").put("index", 0);
        ObjectNode content = candidate.putObject("content").put("role", "model");
        content.putArray("parts").add(part);
        body.putObject("usageMetadata").put("promptTokenCount", 10).put("candidatesTokenCount", 5)
                .put("totalTokenCount", 15);
        body.put("modelVersion", "gemini-2.5-pro");
        return body;
    }
}
