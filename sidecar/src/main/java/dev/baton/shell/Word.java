package dev.baton.shell;

/**
 * One shell word after quote removal.
 *
 * @param literal the word's value when the shell would not change it further; null when it holds a parameter
 *                or command substitution, a glob, brace expansion or a tilde (left unexpanded, never guessed)
 * @param pattern the word with quotes removed and expansions kept as written ({@code src/*.ts}, {@code $OUT})
 * @param raw the word as written
 */
record Word(String literal, String pattern, String raw) {

    static Word of(String literal) {
        return new Word(literal, literal, literal);
    }

    boolean isLiteral() {
        return literal != null;
    }

    /** The value, or the raw text for messages when it is not literal. */
    String shown() {
        return literal != null ? literal : raw;
    }

    /**
     * The directory a non-literal word stays inside: the pattern up to its last slash before the first expansion
     * ({@code src/**}{@code /*.ts} stays in {@code src}); null when it may be anywhere, or when it holds a variable
     * or a command substitution (whose value could name any file).
     */
    String fixedDirectory() {
        if (pattern.indexOf('$') >= 0 || pattern.indexOf('`') >= 0 || pattern.startsWith("~")) {
            return null;
        }
        int first = 0;
        while (first < pattern.length() && "*?[{$~`".indexOf(pattern.charAt(first)) < 0) {
            first++;
        }
        int slash = pattern.lastIndexOf('/', first);
        if (first == 0 || slash < 0) {
            return first == 0 ? null : ".";
        }
        return slash == 0 ? "/" : pattern.substring(0, slash);
    }
}
