package dev.baton.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Git's long options may be abbreviated to any unambiguous prefix ({@code git reset --har}). The options whose
 * effect Baton judges are expanded from their prefixes, each subcommand's in the order of how much they reach: a
 * prefix two of them share is read as the first, so an abbreviation git would refuse as ambiguous is judged as the
 * one that reaches more (its refusal then only costs a message). Options that make a command safer ({@code
 * --dry-run}) are taken only when written whole.
 */
final class Abbreviations {

    private static final Map<String, List<String>> OPTIONS = Map.ofEntries(
            Map.entry("reset", List.of("--hard", "--merge", "--keep", "--mixed", "--soft", "--pathspec-from-file")),
            Map.entry("checkout", List.of("--force", "--pathspec-from-file", "--patch", "--orphan")),
            Map.entry("switch", List.of("--force", "--discard-changes", "--force-create", "--create", "--orphan")),
            Map.entry("restore", List.of("--worktree", "--staged", "--source", "--pathspec-from-file", "--patch")),
            Map.entry("stash", List.of("--include-untracked", "--all", "--pathspec-from-file", "--patch", "--message")),
            Map.entry("clean", List.of("--force", "--exclude")),
            Map.entry("add", List.of("--all", "--update", "--force", "--intent-to-add", "--pathspec-from-file",
                    "--patch", "--interactive", "--edit", "--chmod")),
            Map.entry("commit", List.of("--all", "--include", "--only", "--pathspec-from-file", "--message",
                    "--file", "--reuse-message", "--reedit-message", "--author", "--date", "--template", "--fixup",
                    "--squash", "--cleanup", "--trailer", "--interactive", "--patch")),
            Map.entry("rm", List.of("--cached", "--recursive", "--force", "--pathspec-from-file")),
            Map.entry("merge", List.of("--autostash")),
            Map.entry("rebase", List.of("--autostash")),
            Map.entry("pull", List.of("--autostash")),
            Map.entry("checkout-index", List.of("--force", "--all", "--prefix", "--stage")),
            Map.entry("update-index", List.of("--stdin", "--index-info", "--cacheinfo", "--chmod")),
            Map.entry("diff", List.of("--output", "--ext-diff", "--textconv")),
            Map.entry("log", List.of("--output", "--ext-diff", "--textconv")),
            Map.entry("show", List.of("--output", "--ext-diff", "--textconv")),
            Map.entry("format-patch", List.of("--output-directory", "--stdout")));

    private Abbreviations() {
    }

    /** The arguments with each abbreviated long option (and {@code --opt=value}) written whole. */
    static List<Word> expand(String subcommand, List<Word> args) {
        List<String> options = OPTIONS.get(subcommand);
        if (options == null) {
            return args;
        }
        List<Word> expanded = new ArrayList<>(args.size());
        boolean done = false;
        for (Word arg : args) {
            String text = arg.literal();
            if (done || text == null || !text.startsWith("--") || text.length() < 3) {
                done |= "--".equals(text);
                expanded.add(arg);
                continue;
            }
            int equals = text.indexOf('=');
            String name = equals < 0 ? text : text.substring(0, equals);
            String whole = options.contains(name) ? name
                    : options.stream().filter(option -> option.startsWith(name)).findFirst().orElse(name);
            expanded.add(whole.equals(name) ? arg : Word.of(whole + (equals < 0 ? "" : text.substring(equals))));
        }
        return expanded;
    }
}
