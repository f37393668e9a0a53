package dev.baton.installer.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a file's JSON text into the text of a changed tree by the smallest textual edits: members and elements
 * that are added, replaced or removed are spliced in at the parser's character offsets, and every other byte
 * (indentation, escapes such as {@code "caf\u00e9"}, key order, comments where the agent allows them, a missing
 * final newline) stays as it was. New values are laid out with the file's own indentation. Jackson's tree model
 * keeps no offsets, so the text is parsed here once more with the streaming parser to find them.
 */
public final class JsonTextEdit {

    /** Where one value sits in the text: {@code [start, end)}, with its members or elements. */
    private static final class Span {
        int start;
        int end;
        final Map<String, Integer> keyStarts = new LinkedHashMap<>();
        final Map<String, Span> members = new LinkedHashMap<>();
        final List<Span> elements = new ArrayList<>();
    }

    private record Splice(int start, int end, String text) {
    }

    private final String text;
    private final List<Splice> splices = new ArrayList<>();
    private String unit = "  ";

    private JsonTextEdit(String text) {
        this.text = text;
    }

    /** The text of {@code after}, edited from plain JSON {@code text} (which parses to {@code before}). */
    public static String apply(String text, JsonNode before, JsonNode after) throws IOException {
        return apply(text, before, after, JsonSyntax.PLAIN);
    }

    /** The text of {@code after}, edited from {@code text} in {@code syntax} (which parses to {@code before}). */
    public static String apply(String text, JsonNode before, JsonNode after, JsonSyntax syntax) throws IOException {
        JsonTextEdit edit = new JsonTextEdit(text);
        Span root;
        try (JsonParser parser = syntax.mapper().getFactory().createParser(text)) {
            parser.nextToken();
            root = edit.span(parser);
        }
        edit.unit = edit.indentUnit(root);
        edit.diff(root, before, after);
        StringBuilder out = new StringBuilder(text);
        edit.splices.sort(Comparator.comparingInt(Splice::start).reversed());
        for (Splice splice : edit.splices) {
            out.replace(splice.start, splice.end, splice.text);
        }
        return out.toString();
    }

    private Span span(JsonParser parser) throws IOException {
        Span span = new Span();
        span.start = (int) parser.currentTokenLocation().getCharOffset();
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                int keyStart = (int) parser.currentTokenLocation().getCharOffset();
                parser.nextToken();
                span.keyStarts.put(key, keyStart);
                span.members.put(key, span(parser));
            }
            span.end = (int) parser.currentTokenLocation().getCharOffset() + 1;
        } else if (token == JsonToken.START_ARRAY) {
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                span.elements.add(span(parser));
            }
            span.end = (int) parser.currentTokenLocation().getCharOffset() + 1;
        } else {
            parser.finishToken();
            span.end = (int) parser.currentLocation().getCharOffset();
        }
        return span;
    }

    private void diff(Span span, JsonNode before, JsonNode after) {
        if (before.equals(after)) {
            return;
        }
        if (before.isContainerNode() && after.getNodeType() == before.getNodeType() && before.isEmpty()) {
            fillEmpty(span, after);
        } else if (before.isObject() && after.isObject()) {
            diffObject(span, before, after);
        } else if (before.isArray() && after.isArray()) {
            diffArray(span, before, after);
        } else {
            replace(span, after);
        }
    }

    /**
     * Puts members or elements into an empty object or array. One that holds only comments (settings the user keeps
     * commented out) keeps them, after the new entries; a truly empty one is laid out anew.
     */
    private void fillEmpty(Span span, JsonNode after) {
        if (text.substring(span.start + 1, span.end - 1).isBlank()) {
            replace(span, after);
            return;
        }
        String indent = lineIndentOfLine(span.start) + unit;
        StringBuilder added = new StringBuilder();
        if (after.isObject()) {
            for (Map.Entry<String, JsonNode> member : after.properties()) {
                added.append(added.length() == 0 ? "\n" : ",\n").append(indent).append(JsonText.quote(member.getKey()))
                        .append(": ").append(JsonText.render(member.getValue(), indent, unit));
            }
        } else {
            for (JsonNode element : after) {
                added.append(added.length() == 0 ? "\n" : ",\n").append(indent).append(JsonText.render(element, indent, unit));
            }
        }
        splices.add(new Splice(span.start + 1, span.start + 1, added.toString()));
    }

    private void diffObject(Span span, JsonNode before, JsonNode after) {
        List<String> keys = new ArrayList<>(span.members.keySet());
        List<String> kept = keys.stream().filter(after::has).toList();
        if (kept.isEmpty()) {
            if (after.isEmpty()) {
                empty(span, span.keyStarts.get(keys.get(0)), span.members.get(keys.get(keys.size() - 1)).end);
            } else {
                replace(span, after);
            }
            return;
        }
        String lastKept = kept.get(kept.size() - 1);
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            if (after.has(key)) {
                diff(span.members.get(key), before.get(key), after.get(key));
            } else if (keys.indexOf(lastKept) > i) {
                splices.add(new Splice(span.keyStarts.get(key), afterSeparator(span.members.get(key).end), ""));
            }
        }
        int lastKeptEnd = span.members.get(lastKept).end;
        int lastEnd = span.members.get(keys.get(keys.size() - 1)).end;
        StringBuilder added = new StringBuilder();
        String indent = lineIndent(span.keyStarts.get(keys.get(0)));
        boolean multiline = indent != null;
        for (Map.Entry<String, JsonNode> member : after.properties()) {
            if (!before.has(member.getKey())) {
                added.append(multiline ? ",\n" + indent : ", ")
                        .append(JsonText.quote(member.getKey())).append(": ")
                        .append(multiline ? JsonText.render(member.getValue(), indent, unit) : member.getValue().toString());
            }
        }
        if (lastEnd > lastKeptEnd || added.length() > 0) {
            splices.add(new Splice(lastKeptEnd, lastEnd, added.toString()));
        }
    }

    private void diffArray(Span span, JsonNode before, JsonNode after) {
        if (before.size() == after.size()) {
            for (int i = 0; i < before.size(); i++) {
                diff(span.elements.get(i), before.get(i), after.get(i));
            }
            return;
        }
        if (after.isEmpty()) {
            empty(span, span.elements.get(0).start, span.elements.get(before.size() - 1).end);
            return;
        }
        String indent = lineIndent(span.elements.get(0).start);
        if (after.size() > before.size() && isPrefix(before, after)) {
            StringBuilder added = new StringBuilder();
            for (int i = before.size(); i < after.size(); i++) {
                added.append(indent != null ? ",\n" + indent : ", ")
                        .append(indent != null ? JsonText.render(after.get(i), indent, unit) : after.get(i).toString());
            }
            int end = span.elements.get(before.size() - 1).end;
            splices.add(new Splice(end, end, added.toString()));
            return;
        }
        List<Integer> keptIndexes = subsequence(after, before);
        if (keptIndexes == null || keptIndexes.isEmpty()) {
            replace(span, after);
            return;
        }
        int lastKept = keptIndexes.get(keptIndexes.size() - 1);
        for (int i = 0; i < lastKept; i++) {
            if (!keptIndexes.contains(i)) {
                splices.add(new Splice(span.elements.get(i).start, afterSeparator(span.elements.get(i).end), ""));
            }
        }
        int lastEnd = span.elements.get(before.size() - 1).end;
        if (lastKept < before.size() - 1) {
            splices.add(new Splice(span.elements.get(lastKept).end, lastEnd, ""));
        }
    }

    /**
     * Empties an object or array whose entries run from {@code first} to {@code last}: the inverse of
     * {@link #fillEmpty}, so comments beside the entries stay. With nothing but the entries inside, the value is
     * laid out anew as {@code {}} or {@code []}.
     */
    private void empty(Span span, int first, int last) {
        String indent = lineIndent(first);
        int from = indent != null ? first - indent.length() - 1 : first; // from the end of the line before
        int to = afterTrailingComma(last);
        if ((text.substring(span.start + 1, from) + text.substring(to, span.end - 1)).isBlank()) {
            replace(span, text.charAt(span.start) == '[' ? JsonText.MAPPER.createArrayNode() : JsonText.MAPPER.createObjectNode());
            return;
        }
        splices.add(new Splice(from, to, ""));
    }

    private static boolean isPrefix(JsonNode shorter, JsonNode longer) {
        for (int i = 0; i < shorter.size(); i++) {
            if (!shorter.get(i).equals(longer.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The indexes in {@code longer} that {@code shorter}'s elements are, in order; null when it is no subsequence. */
    private static List<Integer> subsequence(JsonNode shorter, JsonNode longer) {
        List<Integer> indexes = new ArrayList<>();
        int at = 0;
        for (JsonNode element : shorter) {
            while (at < longer.size() && !longer.get(at).equals(element)) {
                at++;
            }
            if (at == longer.size()) {
                return null;
            }
            indexes.add(at++);
        }
        return indexes;
    }

    private void replace(Span span, JsonNode after) {
        String indent = lineIndentOfLine(span.start);
        splices.add(new Splice(span.start, span.end, JsonText.render(after, indent, unit)));
    }

    /** The whitespace before {@code offset} on its line, when only whitespace precedes it there; else null. */
    private String lineIndent(int offset) {
        int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        String prefix = text.substring(lineStart, offset);
        return prefix.isBlank() && lineStart > 0 ? prefix : null;
    }

    /** The leading whitespace of the line {@code offset} is on. */
    private String lineIndentOfLine(int offset) {
        int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        int end = lineStart;
        while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
            end++;
        }
        return text.substring(lineStart, end);
    }

    /**
     * The file's indentation step: how far the root's first member is indented beyond the root's own line, else the
     * leading whitespace of the first indented line that is not a comment, else two spaces.
     */
    private String indentUnit(Span root) {
        if (!root.keyStarts.isEmpty()) {
            String first = lineIndent(root.keyStarts.values().iterator().next());
            String base = lineIndentOfLine(root.start);
            if (first != null && first.length() > base.length() && first.startsWith(base)) {
                return first.substring(base.length());
            }
        }
        for (String line : text.split("\n")) {
            int end = 0;
            while (end < line.length() && (line.charAt(end) == ' ' || line.charAt(end) == '\t')) {
                end++;
            }
            String rest = line.substring(end);
            if (end > 0 && !rest.isEmpty() && !rest.startsWith("/") && !rest.startsWith("*")) {
                return line.substring(0, end);
            }
        }
        return "  ";
    }

    /** Where the next entry starts after a value ending at {@code end}: past the comma and the space after it. */
    private int afterSeparator(int end) {
        int at = afterTrailingComma(end);
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    /** Past a comma that follows {@code end} (after spaces and comments), else {@code end} itself. */
    private int afterTrailingComma(int end) {
        int at = skipSpaceAndComments(end);
        return at < text.length() && text.charAt(at) == ',' ? at + 1 : end;
    }

    /** The first offset from {@code at} that is neither white space nor inside a comment. */
    private int skipSpaceAndComments(int at) {
        while (at < text.length()) {
            if (Character.isWhitespace(text.charAt(at))) {
                at++;
            } else if (text.startsWith("//", at)) {
                int newline = text.indexOf('\n', at);
                at = newline < 0 ? text.length() : newline + 1;
            } else if (text.startsWith("/*", at)) {
                int close = text.indexOf("*/", at + 2);
                at = close < 0 ? text.length() : close + 2;
            } else {
                break;
            }
        }
        return at;
    }
}
