package dev.baton.shell;

import dev.baton.shell.GitCommand.Effect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a {@code git} command line does to the working tree and the index: read-only subcommands pass, {@code mv}
 * and {@code rm} name their files, and the commands whose reach depends on the repository's state (discards,
 * stages, commits, switches, merges) become {@link GitCommand}s judged against it before they run.
 */
final class GitCommands {

    private static final Set<String> READ_ONLY = Set.of("status", "diff", "log", "show", "blame", "grep", "ls-files",
            "ls-tree", "ls-remote", "rev-parse", "rev-list", "describe", "shortlog", "reflog", "cat-file", "fetch",
            "help", "version", "--version", "var", "check-ignore", "check-attr", "count-objects", "whatchanged",
            "name-rev", "merge-base", "for-each-ref", "show-ref", "show-branch", "remote", "config", "push", "tag",
            "branch", "gc", "fsck", "notes", "bisect", "range-diff", "format-patch", "archive", "bundle", "verify-commit",
            "cherry", "difftool", "annotate", "instaweb", "credential", "lfs", "maintenance", "prune", "repack",
            "worktree", "sparse-checkout", "hash-object", "mktree", "symbolic-ref", "update-ref", "request-pull");

    /** Options of git itself that take a value. */
    private static final Set<String> GLOBAL_VALUED = Set.of("-c", "--exec-path", "--namespace", "--config-env");

    private GitCommands() {
    }

    static void read(Invocation call, Path cwd, ShellAnalyzer.FileView files, ShellAnalyzer.Collector out, String part) {
        List<Word> args = call.args();
        Path dir = cwd;
        String workTree = call.env().get("GIT_WORK_TREE");
        if (workTree != null) {
            dir = ShellAnalyzer.resolve(cwd, workTree);
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
            } else if (text.equals("--git-dir")) {
                i += 2;
            } else if (GLOBAL_VALUED.contains(text)) {
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
        new GitCommands.Reader(dir, files, out, part).read(sub, args.subList(i + 1, args.size()));
    }

    /** One git command's arguments, read against its working directory. */
    private record Reader(Path dir, ShellAnalyzer.FileView files, ShellAnalyzer.Collector out, String part) {

        void read(String sub, List<Word> args) {
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
                    if (!has(args, "--cached")) {
                        operands.forEach(w -> out.file(w, dir, part, isDirectory(w)));
                    }
                    git(Effect.OTHER, List.of(), null, false);
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
                case "am", "cherry-pick", "merge", "rebase", "pull", "revert", "read-tree", "checkout-index",
                        "update-index", "submodule", "mergetool" -> {
                    out.unknown.add(part); // the files depend on the commits; they are found afterwards
                    git(Effect.OTHER, List.of(), null, false);
                }
                case "init", "clone" -> out.unknown.add(part);
                default -> {
                    if (!READ_ONLY.contains(sub)) {
                        out.unknown.add(part); // an alias or an unknown subcommand
                    }
                }
            }
        }

        private void git(Effect effect, List<Path> paths, String ref, boolean untracked) {
            out.git.add(new GitCommand(effect, dir, paths, ref, untracked, true, part));
        }

        /** Pathspecs as paths; {@code :/} or a glob widens to the whole tree (empty list), else resolved against dir. */
        private List<Path> paths(List<Word> specs) {
            List<Path> paths = new ArrayList<>();
            for (Word spec : specs) {
                String text = spec.literal();
                if (text == null || text.startsWith(":") || dir == null) {
                    if (text == null && spec.fixedDirectory() != null && dir != null) {
                        paths.add(ShellAnalyzer.resolve(dir, spec.fixedDirectory()));
                        continue;
                    }
                    return List.of();
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
            List<Word> before = new ArrayList<>();
            List<Word> after = null;
            for (int i = 0; i < args.size(); i++) {
                String text = args.get(i).shown();
                if (after != null) {
                    after.add(args.get(i));
                } else if (text.equals("--")) {
                    after = new ArrayList<>();
                } else if (text.equals("-b") || text.equals("-B") || text.equals("--orphan") || text.equals("--conflict")
                        || text.equals("--pathspec-from-file")) {
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
                List<Path> paths = paths(pathspecs);
                git(Effect.DISCARD, paths, null, false);
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
            if (word.literal().equals(".") || word.literal().endsWith("/")) {
                return true;
            }
            Path path = dir == null ? null : ShellAnalyzer.resolve(dir, word.literal());
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
            if (staged && !worktree) {
                git(Effect.OTHER, List.of(), null, false);
                return;
            }
            git(Effect.DISCARD, paths(operands), null, false);
        }

        private void reset(List<Word> args) {
            List<Word> operands = CommandWrites.operands(args, Set.of("--pathspec-from-file"));
            if (has(args, "--hard")) {
                git(Effect.DISCARD, List.of(), null, false);
            } else if (has(args, "--keep", "--merge")) {
                git(Effect.SWITCH, List.of(), operands.isEmpty() ? "HEAD" : operands.get(0).shown(), false);
            } else {
                git(Effect.OTHER, List.of(), null, false); // --soft, --mixed, paths: the index only
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
                    git(Effect.DISCARD, paths(operands), null, untracked);
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
            boolean dryRun = has(args, "-n", "--dry-run")
                    || args.stream().map(Word::shown).anyMatch(a -> a.matches("-[a-zA-Z]*n[a-zA-Z]*") && !a.startsWith("--"));
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
            if (has(args, "-n", "--dry-run")) {
                return;
            }
            if (has(args, "-p", "--patch", "-i", "--interactive")) {
                git(Effect.OTHER, List.of(), null, false);
                return;
            }
            List<Word> operands = CommandWrites.operands(args, Set.of("--chmod", "--pathspec-from-file"));
            boolean all = has(args, "-A", "--all", "-u", "--update");
            git(Effect.STAGE, all && operands.isEmpty() ? List.of() : paths(operands), null, false);
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
            if (all) {
                git(Effect.COMMIT_ALL, List.of(), null, false);
            } else if (!operands.isEmpty()) {
                git(Effect.COMMIT_ALL, paths(operands), null, false);
            } else {
                git(Effect.COMMIT, List.of(), null, false);
            }
        }

        private static boolean has(List<Word> args, String... flags) {
            for (Word arg : args) {
                for (String flag : flags) {
                    if (flag.equals(arg.shown())) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
