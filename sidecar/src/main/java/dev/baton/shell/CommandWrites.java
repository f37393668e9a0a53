package dev.baton.shell;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What one program (other than git) writes, from its arguments: in-place editors, file utilities, formatters with
 * their write flags, package managers and their lockfiles. A program known to only read writes nothing; a program
 * this table does not know cannot be analysed.
 */
final class CommandWrites {

    /** Programs that write no file the agents edit, whatever their arguments. */
    static final Set<String> READ_ONLY = Set.of(
            "ls", "ll", "la", "cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ag", "ack",
            "fd", "fdfind", "wc", "echo", "printf", "pwd", "which", "type", "whereis", "file", "stat", "du", "df",
            "tree", "diff", "cmp", "comm", "cut", "tr", "basename", "dirname", "realpath", "readlink", "date", "env",
            "printenv", "id", "whoami", "uname", "hostname", "true", "false", "test", "[", "sleep", "export", "set",
            "unset", "alias", "history", "man", "help", "ps", "pgrep", "top", "htop", "column", "nl", "od",
            "hexdump", "strings", "md5sum", "sha1sum", "sha256sum", "shasum", "cksum", "tac", "rev", "paste", "join",
            "fold", "fmt", "expand", "unexpand", "seq", "yes", "tput", "clear", "lsof", "jq", "mawk", "nawk", "mkdir", "read", "local", "declare", "typeset", "return", "exit",
            "break", "continue", "shift", "wait", "umask", "ulimit", "hash", "getopts", "let", "noop", ":",
            "bat", "exa", "eza", "tokei", "cloc", "lscpu", "free", "uptime", "nproc", "locale", "tty", "jobs",
            "git-lfs", "gh", "ping", "dig", "nslookup", "host", "ssh-add", "mktemp", "kill", "cal",
            "look", "zcat", "bzcat", "xzcat", "zgrep", "base64");

    /** Formatters and fixers: the flag that makes them write ({@code null}: they write unless told to check). */
    private static final Set<String> CHECK_FLAGS = Set.of("--check", "--diff", "-c", "--check-only", "--dry-run",
            "--list-different");

    private final ShellAnalyzer.FileView files;
    private final Path cwd;
    private final ShellAnalyzer.Collector out;
    private final String part;

    CommandWrites(ShellAnalyzer.FileView files, Path cwd, ShellAnalyzer.Collector out, String part) {
        this.files = files;
        this.cwd = cwd;
        this.out = out;
        this.part = part;
    }

    void read(String name, List<Word> args) {
        switch (name) {
            case "tee" -> operands(args, Set.of("--output-error")).forEach(this::file);
            case "sed" -> sed(args);
            case "perl", "ruby" -> perl(args);
            case "awk", "gawk" -> awk(args);
            case "mv" -> moveOrCopy(args, true, Set.of("-t", "--target-directory", "-S", "--suffix"));
            case "cp" -> moveOrCopy(args, false, Set.of("-t", "--target-directory", "-S", "--suffix"));
            case "install" -> install(args);
            case "ln" -> link(args);
            case "rm", "unlink", "shred" -> {
                boolean recursive = args.stream().map(Word::shown).anyMatch(a -> a.equals("--recursive")
                        || a.startsWith("-") && !a.startsWith("--") && (a.contains("r") || a.contains("R")));
                operands(args, Set.of()).forEach(w -> removal(w, recursive));
            }
            case "rmdir" -> operands(args, Set.of()).forEach(w -> out.file(w, cwd, part, true));
            case "touch" -> operands(args, Set.of("-d", "-t", "-r", "--date", "--reference")).forEach(this::file);
            case "truncate" -> operands(args, Set.of("-s", "-r", "--size", "--reference")).forEach(this::file);
            case "chmod", "chown", "chgrp" -> chmod(args);
            case "dd" -> args.stream().filter(w -> w.pattern().startsWith("of=")).forEach(w -> out.file(
                    w.literal() == null ? new Word(null, w.pattern(), w.raw()) : Word.of(w.literal().substring(3)),
                    cwd, part, false));
            case "sort" -> valueOf(args, "-o", "--output").ifPresent(this::file);
            case "uniq" -> {
                List<Word> operands = operands(args, Set.of("-f", "-s", "-w"));
                if (operands.size() == 2) {
                    file(operands.get(1));
                }
            }
            case "curl" -> curl(args);
            case "wget" -> wget(args);
            case "yq" -> {
                if (has(args, "-i", "--inplace")) {
                    List<Word> operands = operands(args, Set.of("-p", "-o", "--input-format", "--output-format"));
                    operands.stream().skip(1).forEach(this::file);
                }
            }
            case "find" -> {
                if (args.stream().map(Word::shown).anyMatch(a -> Set.of("-delete", "-exec", "-execdir", "-ok",
                        "-okdir", "-fprint", "-fprintf", "-fls", "-fprint0").contains(a))) {
                    out.unknown.add(part);
                }
            }
            case "patch", "split", "csplit", "vi", "vim", "nvim", "view", "ed", "ex", "emacs", "nano", "code", "rsync",
                    "cpio", "sponge" -> out.unknown.add(part); // editors and tools whose targets are not plain operands
            case "xxd" -> {
                List<Word> operands = operands(args, Set.of("-c", "-g", "-l", "-s", "-o", "-n", "-cols", "-len", "-seek"));
                if (operands.size() >= 2) {
                    file(operands.get(1));
                }
            }
            case "iconv" -> valueOf(args, "-o", "--output").ifPresent(this::file);
            case "tar", "bsdtar" -> tar(args);
            case "unzip" -> {
                if (!has(args, "-l", "-t", "-v", "-Z", "-p")) {
                    java.util.Optional<Word> into = valueOf(args, "-d", "-d");
                    if (into.isPresent()) {
                        out.file(into.get(), cwd, part, true);
                    } else {
                        tree(".");
                    }
                }
            }
            case "prettier" -> {
                if (has(args, "--write", "-w")) {
                    paths(args, Set.of("--config", "--ignore-path", "--plugin", "--parser", "--log-level",
                            "--cache-location", "--stdin-filepath"), false);
                }
            }
            case "black", "isort", "rustfmt", "yapf", "autopep8", "autoflake", "clang-format", "stylua", "shfmt",
                    "ktlint", "google-java-format", "swiftformat", "mix" -> formatter(name, args);
            case "gofmt", "goimports" -> {
                if (has(args, "-w")) {
                    paths(args, Set.of("-r"), false);
                }
            }
            case "eslint", "stylelint", "rubocop", "standard" -> {
                if (args.stream().map(Word::shown).anyMatch(a -> a.startsWith("--fix") || a.equals("-a")
                        || a.equals("-A") || a.equals("--autocorrect"))) {
                    paths(args, Set.of("-c", "--config", "--ext", "--ignore-path", "--format", "-f", "-o",
                            "--output-file", "--rulesdir", "--cache-location"), true);
                }
            }
            case "ruff" -> ruff(args);
            case "go" -> go(args);
            case "cargo" -> cargo(args);
            case "npm", "pnpm", "yarn", "bun" -> {
                packages(name, args);
                if (!args.isEmpty() && Set.of("install", "i", "ci", "add", "update", "up", "rebuild", "link")
                        .contains(args.get(0).shown()) && !has(args, "--ignore-scripts")) {
                    out.unknown.add(part); // the packages' lifecycle scripts run code of their own
                }
            }
            case "poetry", "uv", "pipenv", "pdm" -> pythonPackages(name, args);
            case "dotnet" -> {
                if (!args.isEmpty() && "format".equals(args.get(0).literal())) {
                    tree(".");
                } else {
                    out.unknown.add(part);
                }
            }
            default -> {
                if (!READ_ONLY.contains(name)) {
                    out.unknown.add(part); // scripts, interpreters, builds, tests: their writes show afterwards
                }
            }
        }
    }

    private void file(Word word) {
        out.file(word, cwd, part, false);
    }

    private void tree(String relative) {
        out.file(Word.of(relative), cwd, part, true);
    }

    /** A target that is a directory on disk is written anywhere under; a glob, under what it matches with -r. */
    private void removal(Word word, boolean recursive) {
        Path path = word.literal() == null ? null : ShellAnalyzer.resolve(cwd, word.literal());
        out.file(word, cwd, part, path != null ? files.isDirectory(path) : recursive);
    }

    /** The arguments that are not options (and not values of {@code valued} options), after {@code --} all. */
    static List<Word> operands(List<Word> args, Set<String> valued) {
        List<Word> operands = new ArrayList<>();
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            Word arg = args.get(i);
            String text = arg.shown();
            if (options && text.equals("--")) {
                options = false;
            } else if (options && text.startsWith("-") && text.length() > 1) {
                if (valued.contains(text)) {
                    i++;
                }
            } else {
                operands.add(arg);
            }
        }
        return operands;
    }

    private static boolean has(List<Word> args, String... flags) {
        for (Word arg : args) {
            for (String flag : flags) {
                if (flag.equals(arg.literal()) || arg.shown().startsWith(flag + "=")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static java.util.Optional<Word> valueOf(List<Word> args, String shortFlag, String longFlag) {
        for (int i = 0; i < args.size(); i++) {
            String text = args.get(i).shown();
            if ((text.equals(shortFlag) || text.equals(longFlag)) && i + 1 < args.size()) {
                return java.util.Optional.of(args.get(i + 1));
            }
            if (text.startsWith(longFlag + "=")) {
                Word arg = args.get(i);
                String value = text.substring(longFlag.length() + 1);
                return java.util.Optional.of(arg.literal() == null ? new Word(null, value, value) : Word.of(value));
            }
            if (text.startsWith(shortFlag) && text.length() > shortFlag.length() && !text.startsWith("--")) {
                String value = text.substring(shortFlag.length());
                return java.util.Optional.of(args.get(i).literal() == null ? new Word(null, value, value) : Word.of(value));
            }
        }
        return java.util.Optional.empty();
    }

    /** {@code sed -i[SUFFIX] [-e SCRIPT | SCRIPT] FILE…}; without -i sed only prints. */
    private void sed(List<Word> args) {
        boolean inPlace = false;
        boolean scriptFile = false;
        List<Word> scripts = new ArrayList<>();
        List<Word> operands = new ArrayList<>();
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            Word arg = args.get(i);
            String text = arg.shown();
            if (options && text.equals("--")) {
                options = false;
            } else if (options && (text.equals("-e") || text.equals("--expression"))) {
                if (i + 1 < args.size()) {
                    scripts.add(args.get(++i));
                }
            } else if (options && (text.equals("-f") || text.equals("--file"))) {
                scriptFile = true;
                i++;
            } else if (options && text.equals("-l")) {
                i++;
            } else if (options && text.startsWith("--expression=")) {
                scripts.add(arg.literal() == null ? new Word(null, text, text) : Word.of(text.substring("--expression=".length())));
            } else if (options && text.startsWith("--file=")) {
                scriptFile = true;
            } else if (options && (text.equals("-i") || text.startsWith("--in-place"))) {
                inPlace = true;
                if (text.equals("-i") && i + 1 < args.size() && "".equals(args.get(i + 1).literal())) {
                    i++; // BSD sed: -i '' (no backup suffix)
                }
            } else if (options && text.startsWith("-") && !text.startsWith("--") && text.length() > 1) {
                String flags = text.substring(1);
                int in = flags.indexOf('i');
                if (in >= 0) {
                    inPlace = true;
                    flags = flags.substring(0, in); // after i comes its suffix
                }
                if (flags.contains("f")) {
                    scriptFile = true;
                    i++;
                } else if (flags.contains("e") && i + 1 < args.size()) {
                    scripts.add(args.get(++i));
                }
            } else if (options && text.startsWith("--")) {
                // --posix, --regexp-extended, --null-data …
            } else {
                operands.add(arg);
            }
        }
        if (scripts.isEmpty() && !scriptFile && !operands.isEmpty()) {
            scripts.add(operands.remove(0));
        }
        if (scriptFile) {
            out.unknown.add(part); // its w commands are in a file
        }
        for (Word script : scripts) {
            List<String> written = script.literal() == null ? null : SedScript.writes(script.literal());
            if (written == null) {
                out.unknown.add(part);
            } else {
                written.stream().filter(file -> !file.equals("/dev/stdout") && !file.equals("/dev/stderr"))
                        .forEach(file -> file(Word.of(file)));
            }
        }
        if (inPlace) {
            operands.forEach(this::file);
        }
    }

    /** {@code perl -i[.bak] -pe SCRIPT FILE…} (and ruby's -i); flags may be clustered ({@code -pi}, {@code -i -pe}). */
    private void perl(List<Word> args) {
        boolean inPlace = false;
        boolean scriptGiven = false;
        List<Word> operands = new ArrayList<>();
        boolean options = true;
        for (int i = 0; i < args.size(); i++) {
            Word arg = args.get(i);
            String text = arg.shown();
            if (options && text.equals("--")) {
                options = false;
            } else if (options && text.startsWith("-") && text.length() > 1) {
                String flags = text.substring(1);
                for (int f = 0; f < flags.length(); f++) {
                    char c = flags.charAt(f);
                    if (c == 'i') {
                        inPlace = true;
                        break; // the rest is the backup extension
                    }
                    if (c == 'e' || c == 'E') {
                        scriptGiven = true;
                        if (f == flags.length() - 1) {
                            i++;
                        }
                        break;
                    }
                    if ("MImlx0C".indexOf(c) >= 0) {
                        if (f == flags.length() - 1 && "MI".indexOf(c) >= 0) {
                            i++;
                        }
                        break;
                    }
                }
            } else {
                options = false;
                operands.add(arg);
            }
        }
        if (inPlace) {
            operands.stream().skip(scriptGiven ? 0 : 1).forEach(this::file);
        } else if (scriptGiven) {
            out.unknown.add(part); // perl -e may open files for writing
        } else if (!operands.isEmpty()) {
            out.unknown.add(part); // a script
        }
    }

    /** {@code gawk -i inplace PROGRAM FILE…}; plain awk writes only through its own redirections. */
    private void awk(List<Word> args) {
        boolean inPlace = false;
        boolean programGiven = false;
        List<Word> operands = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String text = args.get(i).shown();
            if ((text.equals("-i") || text.equals("--include")) && i + 1 < args.size()) {
                inPlace |= "inplace".equals(args.get(i + 1).literal());
                i++;
            } else if (text.equals("--include=inplace") || text.equals("-iinplace")) {
                inPlace = true;
            } else if (text.equals("-f") || text.equals("--file")) {
                programGiven = true;
                i++;
            } else if (text.equals("-v") || text.equals("-F") || text.equals("--assign")) {
                i++;
            } else if (text.startsWith("-") && text.length() > 1) {
                // other options
            } else if (!text.matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
                operands.add(args.get(i));
            }
        }
        List<Word> inputs = operands.stream().skip(programGiven ? 0 : 1).toList();
        if (inPlace) {
            inputs.forEach(this::file);
        }
        if (programGiven || !operands.isEmpty() && writesFromProgram(operands.get(0))) {
            out.unknown.add(part); // a program in a file, or one that prints into files or runs commands
        }
    }

    /**
     * An awk program that may print into a file or run commands ({@code print > "out"}, {@code print | "sh"},
     * {@code system(…)}, {@code getline} from a command): any {@code >} or {@code |}, so a comparison counts too.
     */
    private static boolean writesFromProgram(Word program) {
        String text = program.pattern();
        return text.contains(">") || text.contains("|") || text.contains("system") || program.literal() == null;
    }

    /** mv and cp: the destination (or DIR/name for each source); mv also removes its sources. */
    private void moveOrCopy(List<Word> args, boolean move, Set<String> valued) {
        List<Word> operands = operands(args, valued);
        java.util.Optional<Word> targetDir = valueOf(args, "-t", "--target-directory");
        boolean noTargetDir = has(args, "-T", "--no-target-directory");
        List<Word> sources;
        Word dest;
        if (targetDir.isPresent()) {
            sources = operands;
            dest = targetDir.get();
        } else {
            if (operands.size() < 2) {
                return;
            }
            sources = operands.subList(0, operands.size() - 1);
            dest = operands.get(operands.size() - 1);
        }
        for (Word source : sources) {
            if (move) {
                removal(source, true); // a moved directory takes all under it
            }
            into(source, dest, noTargetDir || (targetDir.isEmpty() && sources.size() == 1 && !isDirectory(dest)));
        }
    }

    /** Writes the copy of {@code source} at {@code dest} itself or, when dest is a directory, at dest/name. */
    private void into(Word source, Word dest, boolean destIsTarget) {
        Path sourcePath = source.literal() == null ? null : ShellAnalyzer.resolve(cwd, source.literal());
        boolean tree = sourcePath != null && files.isDirectory(sourcePath);
        if (destIsTarget) {
            out.file(dest, cwd, part, tree);
            return;
        }
        if (dest.literal() == null || source.literal() == null) {
            out.unknown.add(part);
            return;
        }
        String name = Path.of(source.literal()).getFileName() == null ? "" : Path.of(source.literal()).getFileName().toString();
        out.file(Word.of(dest.literal() + "/" + name), cwd, part, tree);
    }

    private boolean isDirectory(Word word) {
        if (word.literal() == null) {
            return false;
        }
        if (word.literal().endsWith("/")) {
            return true;
        }
        Path path = ShellAnalyzer.resolve(cwd, word.literal());
        return path != null && files.isDirectory(path);
    }

    private void install(List<Word> args) {
        if (has(args, "-d", "--directory")) {
            return;
        }
        moveOrCopy(args, false, Set.of("-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory",
                "-S", "--suffix"));
    }

    /** {@code ln [-s] TARGET [LINK]}: the link is written, never the target. */
    private void link(List<Word> args) {
        List<Word> operands = operands(args, Set.of("-t", "--target-directory", "-S", "--suffix"));
        java.util.Optional<Word> targetDir = valueOf(args, "-t", "--target-directory");
        if (targetDir.isPresent()) {
            operands.forEach(source -> into(source, targetDir.get(), false));
        } else if (operands.size() == 1) {
            into(operands.get(0), Word.of("."), false);
        } else if (operands.size() >= 2) {
            Word dest = operands.get(operands.size() - 1);
            boolean single = operands.size() == 2 && !isDirectory(dest);
            operands.subList(0, operands.size() - 1).forEach(source -> {
                if (single) {
                    out.file(dest, cwd, part, false);
                } else {
                    into(source, dest, false);
                }
            });
        }
        if (operands.size() == 2 && operands.get(0).literal() != null && operands.get(1).literal() != null) {
            // A write later in the same command through the new name is a write of what it names.
            Path link = ShellAnalyzer.resolve(cwd, operands.get(1).literal());
            String target = operands.get(0).literal();
            boolean symbolic = has(args, "-s", "--symbolic") || args.stream().map(Word::shown)
                    .anyMatch(a -> a.matches("-[a-zA-Z]*s[a-zA-Z]*"));
            Path named = symbolic && link != null && !target.startsWith("/")
                    ? ShellAnalyzer.resolve(link.getParent(), target) : ShellAnalyzer.resolve(cwd, target);
            if (link != null && named != null) {
                out.links.put(isDirectory(operands.get(1)) ? link.resolve(named.getFileName()) : link, named);
            }
        }
    }

    /** {@code tar -x} writes into {@code -C DIR} (or the current one); {@code tar -c -f FILE} writes FILE. */
    private void tar(List<Word> args) {
        if (args.isEmpty()) {
            return;
        }
        String first = args.get(0).shown();
        String bundle = first.startsWith("-") ? (first.startsWith("--") ? "" : first.substring(1)) : first;
        boolean extract = bundle.contains("x") || has(args, "--extract", "--get", "-x");
        boolean create = bundle.matches("[a-zA-Z]*[cruA][a-zA-Z]*") && !extract || has(args, "--create", "--append",
                "--update", "-c", "-r", "-u");
        if (extract) {
            java.util.Optional<Word> into = valueOf(args, "-C", "--directory");
            if (into.isPresent()) {
                out.file(into.get(), cwd, part, true);
            } else {
                tree(".");
            }
        } else if (create) {
            java.util.Optional<Word> archive = valueOf(args, "-f", "--file");
            if (archive.isPresent()) {
                file(archive.get());
            } else if (bundle.contains("f") && args.size() > 1) {
                file(args.get(1)); // tar cf ARCHIVE …
            }
        }
    }

    private void chmod(List<Word> args) {
        boolean reference = args.stream().anyMatch(w -> w.shown().startsWith("--reference"));
        List<Word> operands = operands(args, Set.of());
        boolean recursive = args.stream().map(Word::shown).anyMatch(a -> a.equals("-R") || a.equals("--recursive"));
        operands.stream().skip(reference ? 0 : 1).forEach(w -> removal(w, recursive));
    }

    private void curl(List<Word> args) {
        valueOf(args, "-o", "--output").ifPresent(this::file);
        if (has(args, "-O", "--remote-name", "--remote-name-all")) {
            out.unknown.add(part);
        }
    }

    private void wget(List<Word> args) {
        java.util.Optional<Word> output = valueOf(args, "-O", "--output-document");
        if (output.isPresent()) {
            if (!"-".equals(output.get().literal())) {
                file(output.get());
            }
        } else {
            out.unknown.add(part);
        }
    }

    /** Formatters that write their operands unless asked only to check ({@code black --check}). */
    private void formatter(String name, List<Word> args) {
        if (args.stream().map(Word::shown).anyMatch(CHECK_FLAGS::contains)) {
            return;
        }
        boolean needsFlag = Set.of("autopep8", "autoflake", "yapf", "clang-format", "shfmt").contains(name);
        if (needsFlag && !has(args, "-i", "--in-place", "-w", "--write")) {
            return; // these print the result unless told to write in place
        }
        if (name.equals("mix")) {
            if (!args.isEmpty() && "format".equals(args.get(0).literal())) {
                tree(".");
            }
            return;
        }
        paths(args, Set.of("-l", "--line-length", "--config", "-t", "--target-version", "--exclude", "--include",
                "--extend-exclude", "--style", "--settings-path", "--profile", "-p", "--edition"), false);
    }

    /** Each operand is written: a directory or glob as a tree; no operand means the working directory. */
    private void paths(List<Word> args, Set<String> valued, boolean defaultCwd) {
        List<Word> operands = operands(args, valued);
        if (operands.isEmpty() && defaultCwd) {
            tree(".");
        }
        for (Word operand : operands) {
            if (operand.literal() != null && operand.literal().matches(".*[*?\\[{].*")) {
                // a quoted glob: the formatter expands it itself
                out.pattern(new Word(null, operand.literal(), operand.raw()), cwd, part);
            } else if (operand.literal() == null) {
                out.pattern(operand, cwd, part);
            } else {
                Path path = ShellAnalyzer.resolve(cwd, operand.literal());
                out.file(operand, cwd, part, path != null && files.isDirectory(path));
            }
        }
    }

    /** {@code ruff format [PATH…]}, {@code ruff check --fix [PATH…]}; plain {@code ruff check} only reads. */
    private void ruff(List<Word> args) {
        if (args.isEmpty()) {
            return;
        }
        String sub = args.get(0).shown();
        List<Word> rest = args.subList(1, args.size());
        boolean writes = sub.equals("format") && !has(rest, "--check", "--diff")
                || sub.equals("check") && has(rest, "--fix") && !has(rest, "--diff");
        if (writes) {
            paths(rest, Set.of("--config", "--select", "--ignore", "--extend-select", "--exclude", "--line-length",
                    "--target-version", "--output-format", "--cache-dir"), true);
        }
    }

    private void go(List<Word> args) {
        String sub = args.isEmpty() ? "" : args.get(0).shown();
        switch (sub) {
            case "fmt" -> tree(".");
            case "mod" -> {
                String modSub = args.size() > 1 ? args.get(1).shown() : "";
                if (Set.of("tidy", "edit", "vendor", "init").contains(modSub)) {
                    file(Word.of("go.mod"));
                    file(Word.of("go.sum"));
                }
            }
            case "get" -> {
                file(Word.of("go.mod"));
                file(Word.of("go.sum"));
            }
            case "version", "env", "list", "doc", "vet", "help" -> {
            }
            default -> out.unknown.add(part); // build, test, run, generate
        }
    }

    private void cargo(List<Word> args) {
        String sub = args.isEmpty() ? "" : args.get(0).shown();
        switch (sub) {
            case "fmt" -> {
                if (!has(args, "--check")) {
                    tree(".");
                }
            }
            case "update", "generate-lockfile" -> file(Word.of("Cargo.lock"));
            case "add", "remove", "rm" -> {
                file(Word.of("Cargo.toml"));
                file(Word.of("Cargo.lock"));
            }
            case "clippy" -> {
                if (has(args, "--fix")) {
                    tree(".");
                } else {
                    out.unknown.add(part);
                }
            }
            case "--version", "version", "metadata", "tree", "search", "help" -> {
            }
            default -> out.unknown.add(part); // build, test, run write target/ and whatever build scripts do
        }
    }

    /** Installs and dependency changes rewrite the lockfile (and package.json when they add or remove). */
    private void packages(String manager, List<Word> args) {
        String sub = args.isEmpty() ? "" : args.get(0).shown();
        String lockfile = switch (manager) {
            case "pnpm" -> "pnpm-lock.yaml";
            case "yarn" -> "yarn.lock";
            case "bun" -> "bun.lockb";
            default -> "package-lock.json";
        };
        boolean bareYarn = manager.equals("yarn") && (args.isEmpty() || sub.startsWith("-"));
        if (bareYarn || Set.of("install", "i", "ci", "add", "remove", "rm", "uninstall", "un", "update", "up",
                "upgrade", "dedupe", "prune", "link", "unlink").contains(sub)) {
            file(Word.of(lockfile));
            if (Set.of("add", "remove", "rm", "uninstall", "un", "upgrade").contains(sub) || sub.equals("install")
                    && operands(args.subList(1, args.size()), Set.of()).size() > 0 || sub.equals("i") && args.size() > 1) {
                file(Word.of("package.json"));
            }
        } else if (Set.of("view", "info", "ls", "list", "outdated", "why", "audit", "--version", "-v", "version",
                "help", "config", "search", "whoami", "bin", "root", "prefix").contains(sub) && args.size() <= 2) {
            // reads the registry or the tree
        } else if (!manager.equals("npm") || !sub.isEmpty()) {
            out.unknown.add(part); // run, test, exec, build: scripts
        }
    }

    private void pythonPackages(String manager, List<Word> args) {
        String sub = args.isEmpty() ? "" : args.get(0).shown();
        String lockfile = switch (manager) {
            case "poetry" -> "poetry.lock";
            case "pipenv" -> "Pipfile.lock";
            case "pdm" -> "pdm.lock";
            default -> "uv.lock";
        };
        String manifest = manager.equals("pipenv") ? "Pipfile" : "pyproject.toml";
        switch (sub) {
            case "lock", "sync", "install", "update" -> file(Word.of(lockfile));
            case "add", "remove" -> {
                file(Word.of(lockfile));
                file(Word.of(manifest));
            }
            case "--version", "version", "show", "tree", "check", "env" -> {
            }
            default -> out.unknown.add(part);
        }
    }
}
