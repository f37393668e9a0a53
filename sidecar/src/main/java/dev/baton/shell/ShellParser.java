package dev.baton.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A parser for the POSIX shell command language (with the bash additions agents use: {@code &>}, {@code |&},
 * {@code $'…'}, {@code [[ ]]}, here-strings, process substitution), producing {@link ShellNode}s.
 *
 * <p>Written by hand: Maven Central has no maintained shell parser for the JVM (the known ones are the Go
 * mvdan/sh, the JavaScript bash-parser and tree-sitter-bash, which needs native code; IntelliJ's BashSupport
 * grammar is not published as a library). Baton needs only the structure that decides where a command writes, so
 * this is a recursive-descent reader of lists, pipelines, groups, words with their quoting, redirections and
 * here-documents; it never expands anything. What it cannot follow becomes {@link ShellNode.Opaque}.
 */
final class ShellParser {

    private static final Set<String> PREFIX_WORDS = Set.of("if", "then", "elif", "else", "do", "while", "until", "!", "time");
    private static final Set<String> CLOSING_WORDS = Set.of("fi", "done", "esac");

    /** Nesting deeper than this is not a command an agent writes; it is refused rather than followed. */
    private static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;
    private int depth;
    private final List<PendingHereDoc> hereDocs = new ArrayList<>();

    private ShellParser(String text) {
        this.text = text;
    }

    /** Parses a whole command line. Unparsable input comes back as a single {@link ShellNode.Opaque}. */
    static List<ShellNode> parse(String command) {
        ShellParser parser = new ShellParser(command);
        try {
            List<ShellNode> nodes = parser.list('\0');
            if (parser.pos < parser.text.length()) {
                throw new Unparsable("unexpected '" + parser.text.charAt(parser.pos) + "'");
            }
            parser.readHereDocBodies();
            return parser.resolveHereDocs(nodes);
        } catch (Unparsable e) {
            return List.of(new ShellNode.Opaque(e.getMessage(), command));
        }
    }

    /** A list of pipelines separated by ; & && || or newlines, up to {@code end} (')' or '}' or '\0' for the end). */
    private List<ShellNode> list(char end) {
        if (++depth > MAX_DEPTH) {
            throw new Unparsable("nested more than " + MAX_DEPTH + " levels deep");
        }
        try {
            return listBody(end);
        } finally {
            depth--;
        }
    }

    private List<ShellNode> listBody(char end) {
        List<ShellNode> nodes = new ArrayList<>();
        while (true) {
            skipSeparators();
            if (pos >= text.length()) {
                if (end != '\0') {
                    throw new Unparsable("missing '" + end + "'");
                }
                return nodes;
            }
            char c = text.charAt(pos);
            if (end == ')' && c == ')') {
                return nodes;
            }
            if (end == '}' && c == '}' && wordEndsAt(pos + 1)) {
                return nodes;
            }
            if (c == ')' || (c == '}' && wordEndsAt(pos + 1) && end == '\0')) {
                throw new Unparsable("unexpected '" + c + "'");
            }
            nodes.add(pipeline(end));
            skipBlanks();
            if (pos < text.length()) {
                char next = text.charAt(pos);
                if (startsWith("&&") || startsWith("||")) {
                    pos += 2;
                } else if (next == ';' || next == '&' || next == '\n') {
                    // consumed by skipSeparators
                } else if (!(end == ')' && next == ')') && !(end == '}' && next == '}')) {
                    throw new Unparsable("unexpected '" + next + "'");
                }
            }
        }
    }

    private ShellNode pipeline(char end) {
        List<ShellNode> stages = new ArrayList<>();
        stages.add(command(end));
        while (true) {
            skipBlanks();
            if (startsWith("||") || pos >= text.length() || text.charAt(pos) != '|') {
                break;
            }
            pos += startsWith("|&") ? 2 : 1;
            skipBlanksAndNewlines();
            stages.add(command(end));
        }
        // Each stage of a pipeline runs in a subshell of its own: a cd inside one does not reach the next.
        return stages.size() == 1 ? stages.get(0) : new ShellNode.Group(stages, true, List.of());
    }

    private ShellNode command(char end) {
        skipBlanks();
        int start = pos;
        if (startsWith("((")) {
            skipBalanced("((", "))");
            return simpleOf(List.of(), List.of(), List.of(), List.of(), start);
        }
        if (peek() == '(') {
            pos++;
            List<ShellNode> body = list(')');
            pos++;
            return new ShellNode.Group(body, true, trailingRedirects());
        }
        if (peek() == '{' && wordEndsAt(pos + 1)) {
            pos++;
            List<ShellNode> body = list('}');
            pos++;
            return new ShellNode.Group(body, false, trailingRedirects());
        }
        return simple(end, start);
    }

    private List<Redirect> trailingRedirects() {
        List<Redirect> redirects = new ArrayList<>();
        List<List<ShellNode>> ignored = new ArrayList<>();
        while (true) {
            skipBlanks();
            Redirect redirect = redirect(ignored);
            if (redirect == null) {
                return redirects;
            }
            redirects.add(redirect);
        }
    }

    private ShellNode simple(char end, int start) {
        List<Word> words = new ArrayList<>();
        List<Word> assignments = new ArrayList<>();
        List<Redirect> redirects = new ArrayList<>();
        List<List<ShellNode>> substitutions = new ArrayList<>();
        boolean commandStarted = false;
        while (true) {
            skipBlanks();
            if (pos >= text.length()) {
                break;
            }
            char c = text.charAt(pos);
            if (c == ';' || c == '&' && !startsWith("&>") || c == '|' || c == '\n' || c == ')') {
                break;
            }
            if (c == '(') {
                if (words.size() == 1 && !commandStarted) {
                    throw new Unparsable("function definitions are not followed");
                }
                throw new Unparsable("unexpected '('");
            }
            if (end == '}' && c == '}' && wordEndsAt(pos + 1) && !commandStarted) {
                break;
            }
            Redirect redirect = redirect(substitutions);
            if (redirect != null) {
                redirects.add(redirect);
                continue;
            }
            int wordStart = pos;
            Word word = word(substitutions);
            if (!commandStarted && words.isEmpty()) {
                String value = word.literal();
                if (value != null && value.equals(word.raw())) {
                    if (PREFIX_WORDS.contains(value)) {
                        start = pos; // `if cmd`, `then cmd`, `! cmd`: the command follows the keyword
                        continue;
                    }
                    if (CLOSING_WORDS.contains(value)) {
                        continue; // `done > log` keeps its redirections
                    }
                    if (value.equals("case") || value.equals("function") || value.equals("select")) {
                        throw new Unparsable("'" + value + "' is not followed");
                    }
                    if (value.equals("for")) {
                        skipForHeader(substitutions);
                        start = pos;
                        continue;
                    }
                    if (value.equals("[[")) { // its < and > compare strings
                        skipTo("]]");
                        return simpleOf(List.of(), List.of(), redirects, substitutions, start);
                    }
                }
                if (word.raw().matches("[A-Za-z_][A-Za-z0-9_]*\\+?=.*")) {
                    assignments.add(word); // an assignment before the command
                    continue;
                }
            }
            if (wordStart == pos) {
                throw new Unparsable("unexpected '" + c + "'");
            }
            commandStarted = true;
            words.add(word);
        }
        return simpleOf(assignments, words, redirects, substitutions, start);
    }

    private ShellNode.Simple simpleOf(List<Word> assignments, List<Word> words, List<Redirect> redirects,
                                      List<List<ShellNode>> subs, int start) {
        return new ShellNode.Simple(List.copyOf(assignments), List.copyOf(words), redirects, subs,
                text.substring(start, pos).strip());
    }

    /** {@code for NAME [in WORDS];} up to the separator before {@code do}. */
    private void skipForHeader(List<List<ShellNode>> substitutions) {
        if (startsWith("((")) {
            skipBalanced("((", "))");
            return;
        }
        while (true) {
            skipBlanks();
            if (pos >= text.length() || peek() == ';' || peek() == '\n') {
                return;
            }
            word(substitutions);
        }
    }

    /** A redirection at the current position, or null (position unchanged) when there is none. */
    private Redirect redirect(List<List<ShellNode>> substitutions) {
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (pos < text.length() && text.charAt(pos) == '{' && pos == start) {
            int close = text.indexOf('}', pos);
            if (close > 0 && text.substring(pos + 1, close).matches("[A-Za-z_][A-Za-z0-9_]*")
                    && close + 1 < text.length() && "<>".indexOf(text.charAt(close + 1)) >= 0) {
                pos = close + 1; // {fd}>file
            }
        }
        String op = null;
        for (String candidate : List.of("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">|", ">&", "<", ">")) {
            if (startsWith(candidate)) {
                op = candidate;
                break;
            }
        }
        if (op == null || (op.equals("<") || op.equals(">")) && pos + 1 < text.length() && text.charAt(pos + 1) == '('
                && pos == start) {
            pos = start;
            return null; // process substitution is a word
        }
        if (pos > start && op.startsWith("&")) {
            pos = start;
            return null;
        }
        pos += op.length();
        skipBlanks();
        if (pos >= text.length() || "\n;|&()<>".indexOf(text.charAt(pos)) >= 0) {
            throw new Unparsable("redirection " + op + " without a target");
        }
        Word target = word(substitutions);
        if (op.equals("<<") || op.equals("<<-")) {
            Redirect placeholder = new Redirect(op, target, null);
            hereDocs.add(new PendingHereDoc(placeholder, op.equals("<<-")));
            return placeholder;
        }
        return new Redirect(op, target, null);
    }

    /** A word: quoting removed, expansions noted (the word is then not literal), substitutions parsed. */
    private Word word(List<List<ShellNode>> substitutions) {
        int start = pos;
        StringBuilder value = new StringBuilder();
        boolean literal = true;
        boolean atStart = true;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if ((c == '<' || c == '>') && pos + 1 < text.length() && text.charAt(pos + 1) == '(' && atStart) {
                pos++;
                substitutions.add(substitution());
                value.append("/dev/fd/63"); // what the shell passes: a pipe, not a file of the tree
                literal = false;
                atStart = false;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')'
                    || c == '<' || c == '>') {
                break;
            }
            if (c == '\\') {
                if (pos + 1 < text.length()) {
                    if (text.charAt(pos + 1) != '\n') {
                        value.append(text.charAt(pos + 1));
                    }
                    pos += 2;
                } else {
                    pos++;
                }
            } else if (c == '\'') {
                int close = text.indexOf('\'', pos + 1);
                if (close < 0) {
                    throw new Unparsable("unclosed single quote");
                }
                value.append(text, pos + 1, close);
                pos = close + 1;
            } else if (c == '"') {
                literal &= doubleQuoted(value, substitutions);
            } else if (c == '$') {
                if (pos + 1 < text.length() && text.charAt(pos + 1) == '\'') {
                    pos += 2;
                    ansiC(value);
                } else if (pos + 1 < text.length() && text.charAt(pos + 1) == '"') {
                    pos++; // $"…" is a translated string: as "…"
                } else {
                    dollar(substitutions, value);
                    literal = false;
                }
            } else if (c == '`') {
                backquoted(substitutions);
                value.append('`');
                literal = false;
            } else if (c == '*' || c == '?' || c == '[' && closesBracket()) {
                value.append(c);
                pos++;
                literal = false; // a glob
            } else if (c == '{' && braceExpansion()) {
                value.append(c);
                pos++;
                literal = false;
            } else if (c == '~' && atStart) {
                value.append(c);
                pos++;
                literal = false; // tilde expansion: the home directory is the agent's, not Baton's
            } else {
                value.append(c);
                pos++;
            }
            atStart = false;
        }
        return new Word(literal ? value.toString() : null, value.toString(), text.substring(start, pos));
    }

    /** The inside of "…"; returns whether it stayed literal. */
    private boolean doubleQuoted(StringBuilder value, List<List<ShellNode>> substitutions) {
        boolean literal = true;
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw new Unparsable("unclosed double quote");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                pos++;
                return literal;
            }
            if (c == '\\' && pos + 1 < text.length() && "$`\"\\\n".indexOf(text.charAt(pos + 1)) >= 0) {
                if (text.charAt(pos + 1) != '\n') {
                    value.append(text.charAt(pos + 1));
                }
                pos += 2;
            } else if (c == '$' && pos + 1 < text.length() && isExpansionStart(text.charAt(pos + 1))) {
                dollar(substitutions, value);
                literal = false;
            } else if (c == '`') {
                backquoted(substitutions);
                value.append('`');
                literal = false;
            } else {
                value.append(c);
                pos++;
            }
        }
    }

    private static boolean isExpansionStart(char c) {
        return c == '{' || c == '(' || Character.isLetterOrDigit(c) || "_@*#?-$!".indexOf(c) >= 0;
    }

    /** {@code $name}, {@code ${…}}, {@code $(…)}, {@code $((…))}; a lone {@code $} is literal. */
    private void dollar(List<List<ShellNode>> substitutions, StringBuilder value) {
        int start = pos;
        pos++;
        if (pos >= text.length()) {
            value.append('$');
            return;
        }
        char c = text.charAt(pos);
        if (startsWith("((")) {
            skipBalanced("((", "))");
        } else if (c == '(') {
            substitutions.add(substitution());
        } else if (c == '{') {
            int depth = 0;
            while (pos < text.length()) {
                char d = text.charAt(pos++);
                if (d == '{') {
                    depth++;
                } else if (d == '}' && --depth == 0) {
                    break;
                }
            }
            if (depth != 0) {
                throw new Unparsable("unclosed ${");
            }
        } else if (Character.isLetter(c) || c == '_') {
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                pos++;
            }
        } else if (Character.isDigit(c) || "@*#?-$!".indexOf(c) >= 0) {
            pos++;
        } else {
            value.append('$');
            return;
        }
        value.append(text, start, pos);
    }

    /** {@code (…)} after {@code $}, {@code <} or {@code >}: a script of its own, parsed in place. */
    private List<ShellNode> substitution() {
        pos++; // the '('
        List<ShellNode> body = list(')');
        pos++;
        return body;
    }

    private void backquoted(List<List<ShellNode>> substitutions) {
        StringBuilder inner = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw new Unparsable("unclosed backquote");
            }
            char c = text.charAt(pos);
            if (c == '`') {
                pos++;
                break;
            }
            if (c == '\\' && pos + 1 < text.length() && "$`\\".indexOf(text.charAt(pos + 1)) >= 0) {
                inner.append(text.charAt(pos + 1));
                pos += 2;
            } else {
                inner.append(c);
                pos++;
            }
        }
        ShellParser inner2 = new ShellParser(inner.toString());
        inner2.depth = depth;
        List<ShellNode> nodes = inner2.list('\0');
        if (inner2.pos < inner2.text.length()) {
            throw new Unparsable("unexpected '" + inner2.text.charAt(inner2.pos) + "' in backquotes");
        }
        substitutions.add(nodes);
    }

    /** $'…' with its backslash escapes. */
    private void ansiC(StringBuilder value) {
        while (true) {
            if (pos >= text.length()) {
                throw new Unparsable("unclosed $'");
            }
            char c = text.charAt(pos);
            if (c == '\'') {
                pos++;
                return;
            }
            if (c == '\\' && pos + 1 < text.length()) {
                char e = text.charAt(pos + 1);
                value.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case '0' -> '\0';
                    default -> e;
                });
                pos += 2;
            } else {
                value.append(c);
                pos++;
            }
        }
    }

    /** Whether the unquoted '[' here opens a bracket expression: a ']' follows inside the word. */
    private boolean closesBracket() {
        for (int i = pos + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ']') {
                return i > pos + 1;
            }
            if (" \t\n;&|()<>".indexOf(c) >= 0) {
                return false;
            }
        }
        return false;
    }

    /** Whether the unquoted '{' here starts a brace expansion ({@code a{b,c}}, {@code {1..3}}). */
    private boolean braceExpansion() {
        int close = pos + 1;
        int depth = 1;
        boolean comma = false;
        while (close < text.length() && depth > 0) {
            char c = text.charAt(close);
            if (c == ' ' || c == '\n' || c == ';' || c == '|' || c == '&') {
                return false;
            }
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 1) {
                comma = true;
            }
            close++;
        }
        return depth == 0 && (comma || text.substring(pos, close).contains(".."));
    }

    private void skipBalanced(String open, String close) {
        int end = text.indexOf(close, pos + open.length());
        if (end < 0) {
            throw new Unparsable("missing '" + close + "'");
        }
        pos = end + close.length();
    }

    private void skipTo(String close) {
        int end = text.indexOf(close, pos);
        if (end < 0) {
            throw new Unparsable("missing '" + close + "'");
        }
        pos = end + close.length();
    }

    private void skipBlanks() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r') {
                pos++;
            } else if (c == '\\' && pos + 1 < text.length() && text.charAt(pos + 1) == '\n') {
                pos += 2;
            } else if (c == '#' && (pos == 0 || " \t\n;&|(".indexOf(text.charAt(pos - 1)) >= 0)) {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    private void skipBlanksAndNewlines() {
        while (true) {
            skipBlanks();
            if (pos < text.length() && text.charAt(pos) == '\n') {
                newline();
            } else {
                return;
            }
        }
    }

    /** Separators between pipelines; a newline first reads the bodies of the here-documents opened on its line. */
    private void skipSeparators() {
        while (true) {
            skipBlanks();
            if (pos >= text.length()) {
                return;
            }
            char c = text.charAt(pos);
            if (c == '\n') {
                newline();
            } else if ((c == ';' && !startsWith(";;")) || (c == '&' && !startsWith("&&") && !startsWith("&>"))) {
                pos++;
            } else {
                return;
            }
        }
    }

    private void newline() {
        pos++;
        readHereDocBodies();
    }

    private void readHereDocBodies() {
        for (PendingHereDoc doc : hereDocs) {
            if (doc.body != null) {
                continue;
            }
            Word target = doc.placeholder.target();
            String delimiter = target.literal() != null ? target.literal()
                    : target.raw().replace("'", "").replace("\"", "").replace("\\", "");
            StringBuilder body = new StringBuilder();
            while (pos < text.length()) {
                int eol = text.indexOf('\n', pos);
                String line = eol < 0 ? text.substring(pos) : text.substring(pos, eol);
                pos = eol < 0 ? text.length() : eol + 1;
                String compared = doc.stripTabs ? line.replaceFirst("^\t+", "") : line;
                if (compared.equals(delimiter)) {
                    break;
                }
                body.append(compared).append('\n');
            }
            doc.body = body.toString();
        }
    }

    /** Puts the here-document bodies read after the line into the redirections that opened them. */
    private List<ShellNode> resolveHereDocs(List<ShellNode> nodes) {
        if (hereDocs.isEmpty()) {
            return nodes;
        }
        List<ShellNode> resolved = new ArrayList<>();
        for (ShellNode node : nodes) {
            resolved.add(resolve(node));
        }
        return resolved;
    }

    private ShellNode resolve(ShellNode node) {
        if (node instanceof ShellNode.Simple simple) {
            return new ShellNode.Simple(simple.assignments(), simple.words(),
                    simple.redirects().stream().map(this::resolve).toList(),
                    simple.substitutions(), simple.source());
        }
        if (node instanceof ShellNode.Group group) {
            return new ShellNode.Group(group.body().stream().map(this::resolve).toList(), group.subshell(),
                    group.redirects().stream().map(this::resolve).toList());
        }
        return node;
    }

    private Redirect resolve(Redirect redirect) {
        for (PendingHereDoc doc : hereDocs) {
            if (doc.placeholder == redirect && doc.body != null) {
                return new Redirect(redirect.op(), redirect.target(), doc.body);
            }
        }
        return redirect;
    }

    private boolean wordEndsAt(int index) {
        return index >= text.length() || " \t\n;&|)".indexOf(text.charAt(index)) >= 0;
    }

    private boolean startsWith(String prefix) {
        return text.startsWith(prefix, pos);
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    /** A here-document whose body comes after the end of its line. */
    private static final class PendingHereDoc {
        final Redirect placeholder;
        final boolean stripTabs;
        String body;

        PendingHereDoc(Redirect placeholder, boolean stripTabs) {
            this.placeholder = placeholder;
            this.stripTabs = stripTabs;
        }
    }

    private static final class Unparsable extends RuntimeException {
        Unparsable(String message) {
            super(message, null, false, false);
        }
    }
}
