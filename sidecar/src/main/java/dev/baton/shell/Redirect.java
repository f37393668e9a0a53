package dev.baton.shell;

/**
 * A redirection of a command: {@code 2>> log}, {@code &> out}, {@code <<EOF}.
 *
 * @param op the operator without its fd: {@code > >> >| &> &>> <> < << <<- <<< >& <&}
 * @param target the file word, or the here-document's delimiter
 * @param hereDoc the here-document's body, or null
 */
record Redirect(String op, Word target, String hereDoc) {

    /** Whether the redirection opens {@code target} for writing. */
    boolean writes() {
        return switch (op) {
            case ">", ">>", ">|", "&>", "&>>", "<>" -> true;
            // `>& file` is `&> file` unless the word is a descriptor number or '-'
            case ">&" -> target.literal() == null || !target.literal().matches("[0-9]+-?|-");
            default -> false;
        };
    }
}
