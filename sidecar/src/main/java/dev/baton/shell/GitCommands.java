package dev.baton.shell;

import dev.baton.shell.GitCommand.Effect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a {@code git} command line does to the working tree and the index: read-only subcommands pass, {@code mv}
 * and {@code rm} name their files, and the commands whose reach depends on the repository's state (discards,
 * stages, commits, switches, merges) become {@link GitCommand}s judged against it before they run. Read as git reads
 * it: aliases (from {@code -c} and the configuration) stand for what they name, long options may be abbreviated,
 * pathspecs may be globs or carry magic, and a command that runs code of the repository's (hooks, drivers, filters)
 * or of a setting is checked after it ran too.
 */
final class GitCommands {

    private static final Set<String> READ_ONLY = Set.of("status", "log", "show", "blame", "grep", "ls-files",
            "ls-tree", "ls-remote", "rev-parse", "rev-list", "describe", "shortlog", "reflog", "cat-file", "fetch",
            "help", "version", "--version", "var", "check-ignore", "check-attr", "count-objects", "whatchanged",
            "name-rev", "merge-base", "for-each-ref", "show-ref", "show-branch", "remote", "tag",
            "branch", "gc", "fsck", "notes", "bisect", "range-diff", "archive", "bundle", "verify-commit",
            "cherry", "annotate", "instaweb", "credential", "lfs", "maintenance", "prune", "repack",
            "worktree", "sparse-checkout", "hash-object", "mktree", "symbolic-ref", "update-ref", "request-pull");

    /** Subcommands that run the repository's hooks (pre-commit, post-checkout, pre-push…): checked after they ran. */
    private static final Set<String> RUN_HOOKS = Set.of("commit", "merge", "rebase", "pull", "am", "cherry-pick",
            "revert", "checkout", "switch", "push", "stash");

    /**
     * Settings given with {@code -c} (or in the environment) that make git run a program of their own: the command is
     * checked after it ran, since what the program writes is not on the command line.
     */
    private static final Pattern PROGRAM_SETTING = Pattern.compile("(?i)core\\.(fsmonitor|hookspath|pager|editor"
            + "|sshcommand|askpass|gitproxy|attributesfile)|sequence\\.editor|diff\\..*|merge\\..*|filter\\..*"
            + "|credential\\..*|gpg\\..*|.*\\.(command|program|cmd|driver|textconv|tool|hook)|include\\..*|includeif\\..*");
    private static final Set<String> PROGRAM_VARIABLES = Set.of("GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR",
            "GIT_SEQUENCE_EDITOR", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_CONFIG_PARAMETERS",
            "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_INDEX_FILE");

    /** Options of git itself that take a value. */
    private static final Set<String> GLOBAL_VALUED = Set.of("-c", "--exec-path", "--namespace", "--config-env",
            "--git-dir", "--super-prefix", "--list-cmds", "--attr-source");

    /** How deep an alias may stand for another before the line counts as unknown. */
    private static final int ALIAS_DEPTH = 5;

    private GitCommands() {
    }

    static void read(Invocation call, Path cwd, ShellAnalyzer.FileView files, ShellAnalyzer.Collector out, String part) {
        read(call.args(), call.env(), cwd, files, out, part, new HashMap<>(), 0);
    }

    private static void read(List<Word> args, Map<String, String> env, Path cwd, ShellAnalyzer.FileView files,
                             ShellAnalyzer.Collector out, String part, Map<String, String> aliases, int depth) {
        Path dir = cwd;
        String workTree = env.get("GIT_WORK_TREE");
        if (workTree != null) {
            dir = ShellAnalyzer.resolve(cwd, workTree);
        }
        if (env.keySet().stream().anyMatch(PROGRAM_VARIABLES::contains)) {
            out.unknown.add(part);
        }
        int i = 0;
        while (i < args.size()) {
            Word arg = args.get(i);
            String text = arg.shown();
            if (!text.startsWith("-")) {
                break;
            }
            if (text.equals("-C") && i + 1 < args.size()) {
                String target = args.get(i + 1).literal();
                dir = target == null || dir == null ? null : ShellAnalyzer.resolve(dir, target);
                i += 2;
            } else if (text.startsWith("--work-tree")) {
                String value = text.contains("=") ? text.substring(text.indexOf('=') + 1)
                        : i + 1 < args.size() ? args.get(++i).literal() : null;
                dir = value == null || (arg.literal() == null && text.contains("=")) ? null : ShellAnalyzer.resolve(dir, value);
                i++;
            } else if (text.equals("-c") && i + 1 < args.size()) {
                setting(args.get(i + 1), aliases, out, part);
                i += 2;
            } else if (text.startsWith("--config-env") || text.startsWith("--git-dir=") || text.startsWith("--exec-path=")) {
                out.unknown.add(part); // the setting's value, or the repository, is not on the command line
                i += text.contains("=") ? 1 : 2;
            } else if (GLOBAL_VALUED.contains(text)) {
                out.unknown.add(part);
                i += 2;
            } else {
                i++;
            }
        }
        if (i >= args.size()) {
            return; // `git --version`, `git -C dir` alone
        }
        String sub = args.get(i).literal();
        if (sub == null) {
            out.unknown.add(part);
            return;
        }
        List<Word> rest = args.subList(i + 1, args.size());
        Optional<String> alias = Optional.ofNullable(aliases.get(sub));
        if (alias.isEmpty() && !KNOWN.contains(sub) && !READ_ONLY.contains(sub)) {
            alias = files.gitAlias(dir, sub);
        }
        if (alias.isPresent()) {
            expand(alias.get(), rest, env, dir, files, out, part, aliases, depth);
            return;
        }
        if (RUN_HOOKS.contains(sub) && files.gitHooks(dir)) {
            out.unknown.add(part); // a hook may write anything: a formatter at pre-commit, a generator at post-checkout
        }
        new GitCommands.Reader(dir, files, out, part).read(sub, rest);
    }

    /** The subcommands the reader knows beyond the read-only ones: never taken for an alias. */
    private static final Set<String> KNOWN = Set.of("checkout", "switch", "restore", "reset", "stash", "clean", "add",
            "commit", "mv", "rm", "apply", "am", "cherry-pick", "merge", "rebase", "pull", "revert", "read-tree",
            "checkout-index", "update-index", "submodule", "mergetool", "init", "clone", "diff", "format-patch",
            "push", "difftool", "config");

    /** A {@code -c NAME=VALUE}: an alias defined for this command, or a setting that runs a program. */
    private static void setting(Word word, Map<String, String> aliases, ShellAnalyzer.Collector out, String part) {
        String text = word.literal();
        if (text == null) {
            out.unknown.add(part);
            return;
        }
        int equals = text.indexOf('=');
        String key = equals < 0 ? text : text.substring(0, equals);
        if (key.regionMatches(true, 0, "alias.", 0, 6)) {
            aliases.put(key.substring(6), equals < 0 ? "" : text.substring(equals + 1));
        } else if (PROGRAM_SETTING.matcher(key).matches()) {
            out.unknown.add(part);
        }
    }

    /** An alias: {@code !…} is a shell command of its own; anything else is git's arguments, followed by the rest. */
    private static void expand(String alias, List<Word> rest, Map<String, String> env, Path dir, ShellAnalyzer.FileView files,
                               ShellAnalyzer.Collector out, String part, Map<String, String> aliases, int depth) {
        if (alias.startsWith("!") || depth >= ALIAS_DEPTH) {
            out.unknown.add(part); // a shell alias runs in the repository's top directory, with the arguments appended
            return;
        }
        List<Word> expanded = new ArrayList<>();
        for (String word : alias.strip().split("\\s+")) {
            if (!word.isEmpty()) {
                expanded.add(Word.of(word.replaceAll("^['\"]|['\"]$", "")));
            }
        }
        expanded.addAll(rest);
        read(expanded, env, dir, files, out, part, aliases, depth + 1);
    }

    /** One git command's arguments, read against its working directory. */
    private record Reader(Path dir, ShellAnalyzer.FileView files, ShellAnalyzer.Collector out, String part) {

        void read(String sub, List<Word> given) {
            List<Word> args = Abbreviations.expand(sub, given);
            switch (sub) {
                case "checkout" -> checkout(args);
                case "switch" -> switchBranch(args);
                case "restore" -> restore(args);
                case "reset" -> reset(args);
                case "stash" -> stash(args);
                case "clean" -> clean(args);
                case "add" -> add(args);
                case "commit" -> commit(args);
                case "mv" -> {
                    List<Word> operands = CommandWrites.operands(args, Set.of());
                    operands.forEach(w -> out.file(w, dir, part, isDirectory(w)));
                    git(Effect.OTHER, List.of(), null, false);
                }
                case "rm" -> {
                    List<Word> operands = CommandWrites.operands(args, Set.of("--pathspec-from-file"));
                    if (has(args, "--cached")) {
                        git(Effect.INDEX, pathsOf(args, operands), null, false);
                    } else {
                        operands.forEach(w -> out.file(w, dir, part, isDirectory(w) || has(args, "-r")));
                        if (hasValued(args, "--pathspec-from-file")) {
                            out.unknown.add(part);
                        }
                        git(Effect.OTHER, List.of(), null, false);
                    }
                }
                case "apply" -> {
                    if (has(args, "--check", "--stat", "--numstat", "--summary")) {
                        return;
                    }
                    if (!has(args, "--cached")) {
                        out.unknown.add(part);
                    }
                    if (has(args, "--cached", "--index", "-3", "--3way")) {
                        git(Effect.OTHER, List.of(), null, false);
                    }
                }
                case "merge", "rebase", "pull" -> {
                    if (has(args, "--autostash")) {
                        git(Effect.DISCARD, List.of(), null, false); // puts every change away first
                    }
                    out.unknown.add(part); // the files depend on the commits; they are found afterwards
                    git(Effect.OTHER, List.of(), null, false);
                }
                case "read-tree" -> {
                    if (has(args, "-u")) {
                        git(Effect.DISCARD, List.of(), null, false); // the working tree follows the tree read
                    }
                    git(Effect.INDEX, List.of(), null, false);
                }
                case "checkout-index" -> {
                    List<Word> operands = CommandWrites.operands(args, Set.of("--prefix", "--stage"));
                    if (has(args, "-f", "--force")) {
                        git(Effect.DISCARD, has(args, "-a", "--all") ? List.of() : paths(operands), null, false);
                    } else {
                        operands.forEach(w -> out.file(w, dir, part, false)); // writes only files that are not there
                    }
                    git(Effect.OTHER, List.of(), null, false);
                }
                case "update-index" -> {
                    List<Word> operands = CommandWrites.operands(args, Set.of("--cacheinfo", "--chmod", "--index-info"));
                    git(Effect.INDEX, has(args, "--stdin", "--index-info") ? List.of() : paths(operands), null, false);
                    out.unknown.add(part);
                }
                case "am", "cherry-pick", "revert", "submodule", "mergetool" -> {
                    out.unknown.add(part);
                    git(Effect.OTHER, List.of(), null, false);
                }
                case "diff", "log", "show", "format-patch", "difftool" -> output(sub, args);
                case "init", "clone" -> out.unknown.add(part);
                case "push" -> {
                }
                case "config" -> config(args);
                default -> {
                    if (!READ_ONLY.contains(sub)) {
                        out.unknown.add(part); // an unknown subcommand, or an alias git knows and Baton could not ask
                    }
                }
            }
        }

        /**
         * {@code git config [--local|--worktree|--file F] KEY VALUE}: a setting that makes git run a program (or an alias
         * running a shell command) is planted for every later git command in the repository.
         */
        private void config(List<Word> args) {
            if (has(args, "--get", "--get-all", "--get-regexp", "--list", "-l", "--unset", "--unset-all", "--global",
                    "--system", "--edit", "-e", "--remove-section", "--rename-section")) {
                if (has(args, "--edit", "-e")) {
                    out.unknown.add(part);
                }
                return;
            }
            List<Word> operands = CommandWrites.operands(args, Set.of("--file", "-f", "--blob", "--type", "--default",
                    "--comment"));
            if (operands.size() < 2 || operands.get(0).literal() == null) {
                return;
            }
            String key = operands.get(0).literal();
            String value = operands.get(1).literal();
            boolean alias = key.regionMatches(true, 0, "alias.", 0, 6);
            if (PROGRAM_SETTING.matcher(key).matches() || alias && (value == null || value.startsWith("!"))) {
                git(Effect.PLANT, List.of(), null, false);
            }
        }

        /** {@code diff --output=FILE} and friends write a file; {@code --ext-diff} runs a program; format-patch writes. */
        private void output(String sub, List<Word> args) {
            for (int i = 0; i < args.size(); i++) {
                String text = args.get(i).shown();
                if (text.equals("--output") && i + 1 < args.size()) {
                    out.file(args.get(i + 1), dir, part, false);
                } else if (text.startsWith("--output=")) {
                    out.file(valueWord(args.get(i), "--output="), dir, part, false);
                } else if (text.equals("--ext-diff") || text.equals("--textconv") || sub.equals("difftool")) {
                    out.unknown.add(part);
                }
            }
            if (sub.equals("format-patch")) {
                Optional<Word> directory = valueOf(args, "-o", "--output-directory");
                if (directory.isPresent()) {
                    out.file(directory.get(), dir, part, true);
                } else if (!has(args, "--stdout")) {
                    out.unknown.add(part); // NNNN-subject.patch files in the current directory
                }
            }
        }

        private void git(Effect effect, List<Path> paths, String ref, boolean untracked) {
            out.git.add(new GitCommand(effect, dir, paths, ref, untracked, true, part));
        }

        /** The pathspecs, or the whole tree when they come from a file ({@code --pathspec-from-file}). */
        private List<Path> pathsOf(List<Word> args, List<Word> operands) {
            return hasValued(args, "--pathspec-from-file") ? List.of() : paths(operands);
        }

        /**
         * Pathspecs as paths. Git matches a pathspec as a glob by default, and magic ({@code :(glob)}, {@code :/},
         * {@code :!}) can reach anywhere: a glob widens to the directory it stays in, magic (or an unknown spec) to
         * the whole tree (empty list).
         */
        private List<Path> paths(List<Word> specs) {
            List<Path> paths = new ArrayList<>();
            for (Word spec : specs) {
                String text = spec.literal();
                if (text == null) {
                    if (spec.fixedDirectory() != null && dir != null) {
                        paths.add(ShellAnalyzer.resolve(dir, spec.fixedDirectory()));
                        continue;
                    }
                    return List.of();
                }
                if (text.startsWith(":") || dir == null) {
                    return List.of();
                }
                if (text.matches(".*[*?\\[].*")) {
                    Word pattern = new Word(null, text, spec.raw());
                    String fixed = pattern.fixedDirectory();
                    if (fixed == null) {
                        return List.of();
                    }
                    paths.add(ShellAnalyzer.resolve(dir, fixed));
                    continue;
                }
                Path path = ShellAnalyzer.resolve(dir, text);
                if (path == null) {
                    return List.of();
                }
                paths.add(path);
            }
            return paths;
        }

        /** {@code checkout [-f] [BRANCH] [--] [PATH…]}: paths are discarded; a branch alone is a switch. */
        private void checkout(List<Word> args) {
            if (has(args, "-p", "--patch")) {
                out.unknown.add(part);
                git(Effect.OTHER, List.of(), null, false);
                return;
            }
            boolean force = has(args, "-f", "--force");
            boolean creates = has(args, "-b", "-B", "--orphan");
            if (hasValued(args, "--pathspec-from-file")) {
                git(Effect.DISCARD, List.of(), null, false);
                return;
            }
            List<Word> before = new ArrayList<>();
            List<Word> after = null;
            for (int i = 0; i < args.size(); i++) {
                String text = args.get(i).shown();
                if (after != null) {
                    after.add(args.get(i));
                } else if (text.equals("--")) {
                    after = new ArrayList<>();
                } else if (text.equals("-b") || text.equals("-B") || text.equals("--orphan") || text.equals("--conflict")) {
                    i++;
                } else if (!text.startsWith("-") || text.equals("-")) {
                    before.add(args.get(i));
                }
            }
            List<Word> pathspecs;
            String ref = null;
            if (after != null) {
                pathspecs = after;
                ref = before.isEmpty() ? null : before.get(0).shown();
            } else if (!before.isEmpty() && !creates && isPath(before.get(0))) {
                pathspecs = before;
            } else {
                ref = before.isEmpty() ? null : before.get(0).shown();
                pathspecs = before.size() > 1 ? before.subList(1, before.size()) : List.of();
            }
            if (!pathspecs.isEmpty()) {
                git(Effect.DISCARD, paths(pathspecs), null, false);
                return;
            }
            if (creates && ref == null) {
                git(Effect.OTHER, List.of(), null, false); // a new branch at HEAD keeps every change
                return;
            }
            if (force) {
                git(Effect.DISCARD, List.of(), null, false);
            }
            if (ref != null) {
                git(Effect.SWITCH, List.of(), ref, false);
            } else if (!force) {
                git(Effect.OTHER, List.of(), null, false);
            }
        }

        private boolean isPath(Word word) {
            if (word.literal() == null) {
                return word.fixedDirectory() != null; // a glob: pathspec
            }
            String text = word.literal();
            if (text.equals(".") || text.endsWith("/") || text.startsWith(":") || text.matches(".*[*?\\[].*")) {
                return true;
            }
            Path path = dir == null ? null : ShellAnalyzer.resolve(dir, text);
            return path != null && files.exists(path);
        }

        private boolean isDirectory(Word word) {
            Path path = word.literal() == null || dir == null ? null : ShellAnalyzer.resolve(dir, word.literal());
            return path != null && files.isDirectory(path);
        }

        private void switchBranch(List<Word> args) {
            boolean discard = has(args, "-f", "--force", "--discard-changes");
            List<Word> operands = CommandWrites.operands(args, Set.of("-c", "-C", "--create", "--force-create",
                    "--orphan", "--conflict"));
            boolean creates = has(args, "-c", "-C", "--create", "--force-create", "--orphan");
            if (discard) {
                git(Effect.DISCARD, List.of(), null, false);
            }
            if (creates) {
                if (operands.isEmpty()) {
                    git(Effect.OTHER, List.of(), null, false);
                } else {
                    git(Effect.SWITCH, List.of(), operands.get(0).shown(), false);
                }
            } else if (!operands.isEmpty()) {
                git(Effect.SWITCH, List.of(), operands.get(0).shown(), false);
            } else if (has(args, "-")) {
                git(Effect.SWITCH, List.of(), "@{-1}", false);
            }
        }

        /** {@code restore [--staged] [--worktree] [-s SRC] PATH…}: the working tree is restored unless only --staged. */
        private void restore(List<Word> args) {
            List<Word> operands = CommandWrites.operands(args, Set.of("-s", "--source", "--pathspec-from-file"));
            boolean staged = has(args, "-S", "--staged");
            boolean worktree = has(args, "-W", "--worktree");
            List<Path> paths = pathsOf(args, operands);
            if (staged) {
                git(Effect.UNSTAGE, paths, null, false);
            }
            if (!staged || worktree) {
                git(Effect.DISCARD, paths, null, false);
            }
        }

        private void reset(List<Word> args) {
            List<Word> operands = CommandWrites.operands(args, Set.of("--pathspec-from-file"));
            if (has(args, "--hard")) {
                git(Effect.DISCARD, List.of(), null, false);
            } else if (has(args, "--keep", "--merge")) {
                git(Effect.SWITCH, List.of(), operands.isEmpty() ? "HEAD" : operands.get(0).shown(), false);
            } else if (has(args, "--soft")) {
                git(Effect.OTHER, List.of(), null, false); // moves HEAD only
            } else {
                // --mixed, or paths: the index entries go back to the commit's; a first operand that is a commit
                // names where from, not what
                List<Word> specs = operands.isEmpty() || isPath(operands.get(0)) ? operands
                        : operands.subList(1, operands.size());
                git(Effect.UNSTAGE, pathsOf(args, specs), null, false);
            }
        }

        /** {@code stash [push|save] [-u] [-- PATH…]} puts changes away; pop and apply bring unknown ones back. */
        private void stash(List<Word> args) {
            String sub = args.isEmpty() || args.get(0).shown().startsWith("-") ? "push" : args.get(0).shown();
            List<Word> rest = args.isEmpty() || args.get(0).shown().startsWith("-") ? args : args.subList(1, args.size());
            switch (sub) {
                case "push", "save" -> {
                    boolean untracked = has(rest, "-u", "--include-untracked", "-a", "--all");
                    List<Word> operands = sub.equals("save") ? List.of()
                            : CommandWrites.operands(rest, Set.of("-m", "--message", "--pathspec-from-file"));
                    git(Effect.DISCARD, pathsOf(rest, operands), null, untracked);
                }
                case "pop", "apply", "branch" -> {
                    out.unknown.add(part);
                    git(Effect.OTHER, List.of(), null, false);
                }
                case "list", "show", "drop", "clear", "create", "store" -> {
                }
                default -> {
                    git(Effect.DISCARD, paths(args), null, false); // `git stash -- path` spelled oddly
                }
            }
        }

        private void clean(List<Word> args) {
            boolean dryRun = args.stream().map(Word::shown).anyMatch(a -> a.equals("--dry-run")
                    || a.matches("-[a-zA-Z]*n[a-zA-Z]*") && !a.startsWith("--"));
            boolean force = has(args, "--force") || args.stream().map(Word::shown)
                    .anyMatch(a -> a.matches("-[a-zA-Z]*f[a-zA-Z]*") && !a.startsWith("--"));
            if (dryRun || !force) {
                return; // without -f git refuses (clean.requireForce)
            }
            List<Word> operands = CommandWrites.operands(args, Set.of("-e", "--exclude"));
            out.git.add(new GitCommand(Effect.CLEAN, dir, paths(operands), null, true, false, part));
        }

        /** {@code add -A|.|-u|PATH…}: stages what is under its paths (everything for -A and -u). */
        private void add(List<Word> args) {
            if (args.stream().map(Word::shown).anyMatch(a -> a.equals("--dry-run") || a.equals("-n"))) {
                return;
            }
            if (has(args, "-p", "--patch", "-i", "--interactive", "-e", "--edit")) {
                git(Effect.OTHER, List.of(), null, false);
                return;
            }
            List<Word> operands = CommandWrites.operands(args, Set.of("--chmod", "--pathspec-from-file"));
            boolean all = has(args, "-A", "--all", "-u", "--update");
            git(Effect.STAGE, all && operands.isEmpty() ? List.of() : pathsOf(args, operands), null, false);
            if (has(args, "-N", "--intent-to-add", "-f", "--force")) {
                git(Effect.INDEX, pathsOf(args, operands), null, false);
            }
        }

        /** {@code commit -a} takes every tracked change, {@code commit PATH…} the paths, plain commit the index. */
        private void commit(List<Word> args) {
            Set<String> valued = Set.of("--message", "--file", "--reuse-message", "--reedit-message", "--author",
                    "--date", "--template", "--fixup", "--squash", "--cleanup", "--trailer", "--pathspec-from-file");
            List<Word> operands = new ArrayList<>();
            boolean options = true;
            for (int i = 0; i < args.size(); i++) {
                String text = args.get(i).shown();
                if (options && text.equals("--")) {
                    options = false;
                } else if (options && text.startsWith("--")) {
                    i += valued.contains(text) ? 1 : 0;
                } else if (options && text.startsWith("-") && text.length() > 1) {
                    i += "mFCct".indexOf(text.charAt(text.length() - 1)) >= 0 ? 1 : 0; // -m MSG, -am MSG
                } else {
                    operands.add(args.get(i));
                }
            }
            boolean all = args.stream().map(Word::shown).anyMatch(a -> a.equals("--all")
                    || a.matches("-[a-zA-Z]*a[a-zA-Z]*") && !a.startsWith("--"));
            if (all || hasValued(args, "--pathspec-from-file")) {
                git(Effect.COMMIT_ALL, List.of(), null, false);
            } else if (!operands.isEmpty()) {
                git(Effect.COMMIT_ALL, paths(operands), null, false);
            } else {
                git(Effect.COMMIT, List.of(), null, false);
            }
        }

        /**
         * Whether a flag is given: a long one as itself or with its value ({@code --source=X}), a short one also
         * inside a bundle of short flags ({@code -qf}).
         */
        static boolean has(List<Word> args, String... flags) {
            for (Word arg : args) {
                String text = arg.shown();
                for (String flag : flags) {
                    if (flag.equals(text) || flag.startsWith("--") && text.startsWith(flag + "=")
                            || flag.length() == 2 && flag.charAt(0) == '-' && text.length() > 2 && text.charAt(0) == '-'
                            && text.charAt(1) != '-' && text.indexOf(flag.charAt(1), 1) > 0 && text.matches("-[a-zA-Z]+")) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static boolean hasValued(List<Word> args, String flag) {
            return args.stream().map(Word::shown).anyMatch(a -> a.equals(flag) || a.startsWith(flag + "="));
        }

        private static Word valueWord(Word arg, String prefix) {
            String value = arg.shown().substring(prefix.length());
            return arg.literal() == null ? new Word(null, value, value) : Word.of(value);
        }

        private static Optional<Word> valueOf(List<Word> args, String shortFlag, String longFlag) {
            for (int i = 0; i < args.size(); i++) {
                String text = args.get(i).shown();
                if ((text.equals(shortFlag) || text.equals(longFlag)) && i + 1 < args.size()) {
                    return Optional.of(args.get(i + 1));
                }
                if (text.startsWith(longFlag + "=")) {
                    return Optional.of(valueWord(args.get(i), longFlag + "="));
                }
            }
            return Optional.empty();
        }
    }
}
