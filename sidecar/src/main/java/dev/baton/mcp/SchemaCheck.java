package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks tool arguments against the tools' own input schemas, so what an agent is told and what
 * is accepted cannot drift apart. It knows the keywords {@link Schema} writes, nothing more.
 */
final class SchemaCheck {

    private SchemaCheck() {
    }

    /** The first problem found, as a sentence naming the argument, or null when the value fits. */
    static String problem(JsonNode value, JsonNode schema, String path) {
        if (schema.has("oneOf")) {
            List<String> problems = new ArrayList<>();
            int fits = 0;
            for (JsonNode alternative : schema.get("oneOf")) {
                String problem = problem(value, alternative, path);
                if (problem == null) {
                    fits++;
                } else {
                    problems.add(problem);
                }
            }
            return fits == 1 ? null : "'" + path + "' must be exactly one of its forms (" + schema.path("description").asText()
                    + "); " + (fits == 0 ? String.join("; or ", problems) : "it fits several");
        }
        String type = schema.path("type").asText();
        String mismatch = typeProblem(value, type, path);
        if (mismatch != null) {
            return mismatch;
        }
        if (schema.has("const") && !schema.get("const").equals(value)) {
            return "'" + path + "' must be " + schema.get("const");
        }
        if (schema.has("enum")) {
            boolean listed = false;
            for (JsonNode allowed : schema.get("enum")) {
                listed |= allowed.equals(value);
            }
            if (!listed) {
                return "'" + path + "' must be one of " + schema.get("enum") + ", was " + value;
            }
        }
        switch (type) {
            case "string" -> {
                int length = value.asText().length();
                if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
                    return "'" + path + "' must not be empty" + (schema.get("minLength").asInt() > 1 ? " (at least "
                            + schema.get("minLength").asInt() + " characters)" : "");
                }
                if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
                    return "'" + path + "' is " + length + " characters long; the limit is " + schema.get("maxLength").asInt();
                }
                if ("date-time".equals(schema.path("format").asText())) {
                    try {
                        Instant.parse(value.asText());
                    } catch (DateTimeParseException e) {
                        return "'" + path + "' must be a date-time such as 2026-01-31T09:00:00Z, was '" + value.asText() + "'";
                    }
                }
            }
            case "integer" -> {
                long number = value.asLong();
                if (schema.has("minimum") && number < schema.get("minimum").asLong()
                        || schema.has("maximum") && number > schema.get("maximum").asLong()) {
                    return "'" + path + "' must be between " + schema.path("minimum").asLong() + " and "
                            + schema.path("maximum").asLong() + ", was " + number;
                }
            }
            case "array" -> {
                if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                    return "'" + path + "' needs at least " + schema.get("minItems").asInt() + " item(s)";
                }
                if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
                    return "'" + path + "' has " + value.size() + " items; the limit is " + schema.get("maxItems").asInt();
                }
                for (int i = 0; i < value.size(); i++) {
                    String problem = problem(value.get(i), schema.get("items"), path + "[" + i + "]");
                    if (problem != null) {
                        return problem;
                    }
                }
            }
            case "object" -> {
                return objectProblem(value, schema, path);
            }
            default -> {
                return null;
            }
        }
        return null;
    }

    private static String typeProblem(JsonNode value, String type, String path) {
        boolean fits = switch (type) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber() && value.canConvertToLong();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            default -> true;
        };
        return fits ? null : "'" + path + "' must be " + (type.equals("integer") ? "an integer" : type.equals("array")
                ? "an array" : type.equals("object") ? "an object" : "a " + type) + ", was " + value;
    }

    private static String objectProblem(JsonNode value, JsonNode schema, String path) {
        String prefix = path.isEmpty() ? "" : path + ".";
        for (JsonNode required : schema.path("required")) {
            JsonNode given = value.get(required.asText());
            if (given == null || given.isNull()) {
                return "'" + prefix + required.asText() + "' is required";
            }
        }
        JsonNode properties = schema.path("properties");
        Iterator<Map.Entry<String, JsonNode>> fields = value.properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!properties.has(field.getKey())) {
                if (schema.path("additionalProperties").asBoolean(true)) {
                    continue;
                }
                List<String> known = new ArrayList<>();
                properties.fieldNames().forEachRemaining(known::add);
                return "unknown argument '" + prefix + field.getKey() + "'; the arguments are " + known;
            }
            if (field.getValue().isNull()) {
                continue; // an explicit null is the same as leaving an optional argument out
            }
            String problem = problem(field.getValue(), properties.get(field.getKey()), prefix + field.getKey());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }
}
