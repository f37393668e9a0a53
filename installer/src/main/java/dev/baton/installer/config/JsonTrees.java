package dev.baton.installer.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Navigation of configuration trees that creates what is missing and refuses values of the wrong type. */
public final class JsonTrees {

    private JsonTrees() {
    }

    public static ObjectNode objectAt(ObjectNode parent, String key, String displayKey) {
        JsonNode value = parent.get(key);
        if (value == null) {
            return parent.putObject(key);
        }
        if (!value.isObject()) {
            throw new ConfigShapeException(displayKey, JsonText.kind(value), "an object");
        }
        return (ObjectNode) value;
    }

    public static ArrayNode arrayAt(ObjectNode parent, String key, String displayKey) {
        JsonNode value = parent.get(key);
        if (value == null) {
            return parent.putArray(key);
        }
        if (!value.isArray()) {
            throw new ConfigShapeException(displayKey, JsonText.kind(value), "an array");
        }
        return (ArrayNode) value;
    }
}
