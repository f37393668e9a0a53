package dev.baton.installer.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads JSON in an agent's syntax ({@link JsonSyntax}) and writes it the way the agents themselves do
 * ({@code JSON.stringify(value, null, 2)} plus a final newline), so the parts of a file Baton does not touch keep
 * their exact text.
 */
public final class JsonText {

    /** Plain JSON, as Baton writes it and most agents read it. */
    public static final ObjectMapper MAPPER = JsonSyntax.PLAIN.mapper();

    private static final String INDENT = "  ";

    private JsonText() {
    }

    /** Parses a whole document that must be a plain JSON object; the exception message is the parser's, made readable. */
    public static ObjectNode parseObject(String text) throws InvalidJson {
        return parseObject(text, JsonSyntax.PLAIN);
    }

    /** Parses a whole document that must be a JSON object in the given syntax. */
    public static ObjectNode parseObject(String text, JsonSyntax syntax) throws InvalidJson {
        JsonNode node;
        try {
            node = syntax.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            String reason = e.getOriginalMessage().lines().findFirst().orElse("invalid JSON");
            boolean located = e.getLocation() != null && e.getLocation().getLineNr() > 0;
            throw new InvalidJson(reason, located ? e.getLocation().getLineNr() : 0,
                    located ? e.getLocation().getColumnNr() : 0);
        }
        if (node == null || node.isMissingNode()) {
            throw new InvalidJson("the file is empty, expected a JSON object", 0, 0);
        }
        if (!node.isObject()) {
            throw new InvalidJson("expected a JSON object but found " + kind(node), 0, 0);
        }
        return (ObjectNode) node;
    }

    public static String render(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, 0, out, "", INDENT);
        return out.append('\n').toString();
    }

    /** A value laid out to sit on a line indented by {@code base}, nested levels indented by {@code unit} more each. */
    public static String render(JsonNode node, String base, String unit) {
        StringBuilder out = new StringBuilder();
        write(node, 0, out, base, unit);
        return out.toString();
    }

    public static String quote(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
    }

    public static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING, BINARY -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            case MISSING -> "nothing";
        };
    }

    private static void write(JsonNode node, int depth, StringBuilder out, String base, String unit) {
        if (node.isObject()) {
            writeObject(node, depth, out, base, unit);
        } else if (node.isArray()) {
            writeArray(node, depth, out, base, unit);
        } else if (node.isTextual()) {
            out.append('"').append(JsonStringEncoder.getInstance().quoteAsString(node.textValue())).append('"');
        } else {
            out.append(node.toString());
        }
    }

    private static void writeObject(JsonNode node, int depth, StringBuilder out, String base, String unit) {
        if (node.isEmpty()) {
            out.append("{}");
            return;
        }
        out.append("{\n");
        Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            out.append(base).append(unit.repeat(depth + 1))
                    .append('"').append(JsonStringEncoder.getInstance().quoteAsString(field.getKey())).append("\": ");
            write(field.getValue(), depth + 1, out, base, unit);
            out.append(fields.hasNext() ? ",\n" : "\n");
        }
        out.append(base).append(unit.repeat(depth)).append('}');
    }

    private static void writeArray(JsonNode node, int depth, StringBuilder out, String base, String unit) {
        if (node.isEmpty()) {
            out.append("[]");
            return;
        }
        out.append("[\n");
        for (int i = 0; i < node.size(); i++) {
            out.append(base).append(unit.repeat(depth + 1));
            write(node.get(i), depth + 1, out, base, unit);
            out.append(i < node.size() - 1 ? ",\n" : "\n");
        }
        out.append(base).append(unit.repeat(depth)).append(']');
    }

    /** The text is not a JSON object; the message says why and where. */
    public static final class InvalidJson extends Exception {
        private final String reason;
        private final int line;
        private final int column;

        InvalidJson(String reason, int line, int column) {
            super(line > 0 ? reason + " (" + position(line, column) + ")" : reason);
            this.reason = reason;
            this.line = line;
            this.column = column;
        }

        String reason() {
            return reason;
        }

        /** "line L, column C", or empty when the parser named no place. */
        String position() {
            return line > 0 ? position(line, column) : "";
        }

        private static String position(int line, int column) {
            return "line " + line + ", column " + column;
        }
    }
}
