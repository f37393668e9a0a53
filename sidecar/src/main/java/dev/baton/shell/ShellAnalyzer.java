package dev.baton.shell;

import dev.baton.git.GitConfig;
import dev.baton.git.RepoHooks;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Finds what a shell command line writes before it runs: it walks the parsed command as the shell would run it,
 * keeping the working directory ({@code cd} in a list, a subshell's own), and asks each simple command what it
 * writes ({@link CommandWrites}, {@link GitCommands}). Nothing is expanded: a target that depends on a variable or
 * a script is reported as unknown, never guessed.
 */
public final class ShellAnalyzer {

    /** The parts of the file system the analysis looks at: whether a path is a directory (mv/cp into it). */
    public interface FileView {
        FileView REAL = new FileView() {
            @Override
            public boolean isDirectory(Path path) {
                return Files.isDirectory(path);
            }

            @Override
            public boolean exists(Path path) {
                return Files.exists(path);
            }

            @Override
            public Optional<String> gitAlias(Path dir, String name) {
                return dir == null ? Optional.empty() : GitConfig.alias(dir, name, Duration.ofSeconds(2));
            }

            @Override
            public boolean gitHooks(Path dir) {
                return dir != null && RepoHooks.present(dir);
            }
        };

        boolean isDirectory(Path path);

        boolean exists(Path path);

        /** What a git alias stands for in {@code dir}'s repository ({@code git config alias.NAME}), if it is one. */
        default Optional<String> gitAlias(Path dir, String name) {
            return Optional.empty();
        }

        /** Whether {@code dir}'s repository has hooks that git commands run. */
        default boolean gitHooks(Path dir) {
            return false;
        }
    }

    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh");

    private final FileView files;
    private final Function<String, List<String>> patchPaths;

    /** @param patchPaths the files an {@code apply_patch} here-document writes, as the patch names them */
    public ShellAnalyzer(FileView files, Function<String, List<String>> patchPaths) {
        this.files = files;
        this.patchPaths = patchPaths;
    }

    /** @param cwd the directory the agent runs the command in (absolute); null when unknown */
    public ShellAnalysis analyse(String command, Path cwd) {
        Collector out = new Collector();
        walk(ShellParser.parse(command), new Cwd(cwd), out, 0);
        return new ShellAnalysis(out.writes, out.git, out.unknown, out.commands);
    }

    private void walk(List<ShellNode> nodes, Cwd cwd, Collector out, int depth) {
        for (ShellNode node : nodes) {
            if (node instanceof ShellNode.Opaque opaque) {
                String source = opaque.source().length() <= 200 ? opaque.source() : opaque.source().substring(0, 199) + "…";
                out.unknown.add(source + " (" + opaque.reason() + ")");
            } else if (node instanceof ShellNode.Group group) {
                Cwd inner = group.subshell() ? cwd.copy() : cwd;
                walk(group.body(), inner, out, depth);
                redirects(group.redirects(), cwd, out, "( … )" + redirectText(group.redirects()));
            } else if (node instanceof ShellNode.Simple simple) {
                for (List<ShellNode> substitution : simple.substitutions()) {
                    walk(substitution, cwd.copy(), out, depth);
                }
                redirects(simple.redirects(), cwd, out, simple.source());
                simple(simple, cwd, out, depth);
            }
        }
    }

    private static String redirectText(List<Redirect> redirects) {
        StringBuilder text = new StringBuilder();
        redirects.forEach(r -> text.append(' ').append(r.op()).append(' ').append(r.target().raw()));
        return text.toString();
    }

    private void redirects(List<Redirect> redirects, Cwd cwd, Collector out, String part) {
        for (Redirect redirect : redirects) {
            if (redirect.writes()) {
                out.file(redirect.target(), cwd, part, false);
            }
        }
    }

    private void simple(ShellNode.Simple simple, Cwd cwd, Collector out, int depth) {
        List<Word> words = simple.words();
        if (words.isEmpty()) {
            return;
        }
        out.commands.add(words.stream().map(Word::shown).toList());
        String part = simple.source();
        Invocation call = Invocation.of(words, simple.assignments());
        if (call == null) {
            out.unknown.add(part);
            return;
        }
        String name = call.name();
        List<Word> args = call.args();
        if (call.chdir() != null) {
            // env -C DIR: the program runs there
            Cwd moved = cwd.copy();
            moved.dir = moved.dir == null ? null : resolve(moved.dir, call.chdir());
            cwd = moved;
        }
        if (simple.assignments().stream().anyMatch(a -> a.shown().startsWith("CDPATH="))
                || name.equals("export") && args.stream().anyMatch(a -> a.shown().startsWith("CDPATH"))) {
            cwd.cdpath = true;
        }
        switch (name) {
            case "cd", "pushd" -> cd(args, cwd);
            case "popd" -> cwd.dir = null;
            case "eval", "source", ".", "exec" -> out.unknown.add(part);
            case "trap" -> trap(args, cwd, out, part, depth);
            case "git" -> GitCommands.read(call, cwd.dir, files, out, part);
            case "apply_patch", "applypatch" -> applyPatch(simple, cwd, out, part);
            default -> {
                if (SHELLS.contains(name)) {
                    shell(args, cwd, out, part, depth);
                } else if (name.equals("xargs") || name.equals("parallel")) {
                    xargs(args, out, part);
                } else {
                    new CommandWrites(files, cwd.dir, out, part).read(name, args);
                }
            }
        }
    }

    private static void cd(List<Word> args, Cwd cwd) {
        List<Word> operands = args.stream().filter(w -> w.literal() == null || !w.literal().startsWith("-")).toList();
        if (operands.size() != 1 || operands.get(0).literal() == null || cwd.dir == null) {
            cwd.dir = null; // cd, cd ~, cd -, cd "$DIR": the directory cannot be known here
            return;
        }
        String target = operands.get(0).literal();
        if (cwd.cdpath && !target.startsWith("/") && !target.startsWith("./") && !target.startsWith("../")
                && !target.equals(".") && !target.equals("..")) {
            cwd.dir = null; // CDPATH may lead anywhere
            return;
        }
        cwd.dir = resolve(cwd.dir, target);
    }

    /** {@code trap 'COMMANDS' SIGNAL…}: the commands run at the signal (EXIT: when the command ends), read as a script. */
    private void trap(List<Word> args, Cwd cwd, Collector out, String part, int depth) {
        List<Word> operands = args.stream().filter(w -> !w.shown().startsWith("-")).toList();
        if (operands.size() < 2) {
            return; // trap -p, trap SIGNAL alone (reset): nothing runs
        }
        String script = operands.get(0).literal();
        if (script == null || depth >= 4) {
            out.unknown.add(part);
        } else if (!script.isEmpty() && !script.equals("-")) {
            walk(ShellParser.parse(script), cwd.copy(), out, depth + 1);
        }
    }

    /** {@code bash -c 'script'} is analysed as the script; {@code bash script.sh} cannot be. */
    private void shell(List<Word> args, Cwd cwd, Collector out, String part, int depth) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i).literal();
            if (arg == null) {
                break;
            }
            if (arg.startsWith("-") && arg.contains("c") && !arg.startsWith("--") && i + 1 < args.size()) {
                String script = args.get(i + 1).literal();
                if (script != null && depth < 4) {
                    walk(ShellParser.parse(script), cwd.copy(), out, depth + 1);
                    return;
                }
                break;
            }
            if (!arg.startsWith("-")) {
                break;
            }
        }
        out.unknown.add(part);
    }

    /** Arguments come from input: a reading command stays read-only, any other cannot be analysed. */
    private static void xargs(List<Word> args, Collector out, String part) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i).literal();
            if (arg == null) {
                break;
            }
            if (arg.startsWith("-")) {
                if (Set.of("-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a").contains(arg)) {
                    i++;
                }
                continue;
            }
            if (CommandWrites.READ_ONLY.contains(Invocation.baseName(arg))) {
                return;
            }
            break;
        }
        out.unknown.add(part);
    }

    private void applyPatch(ShellNode.Simple simple, Cwd cwd, Collector out, String part) {
        String patch = simple.redirects().stream().map(Redirect::hereDoc).filter(body -> body != null)
                .findFirst().orElse(null);
        if (patch == null && !simple.words().isEmpty() && simple.words().size() > 1) {
            patch = simple.words().get(1).literal();
        }
        List<String> paths = patch == null ? List.of() : patchPaths.apply(patch);
        if (paths.isEmpty()) {
            out.unknown.add(part);
            return;
        }
        paths.forEach(path -> out.file(Word.of(path), cwd, part, false));
    }

    static Path resolve(Path cwd, String path) {
        try {
            Path given = Path.of(path);
            if (given.isAbsolute()) {
                Path normal = given.normalize();
                if (normal.startsWith("/proc")) {
                    return procPath(cwd, normal);
                }
                return normal;
            }
            return cwd == null ? null : cwd.resolve(given).normalize();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /**
     * A path through /proc: the shell's own current directory ({@code /proc/self/cwd}, as the command runs it) or root
     * ({@code /proc/self/root}); any other process's view is unknown (null). A file of /proc itself is no file of a
     * repository.
     */
    private static Path procPath(Path cwd, Path path) {
        for (String self : List.of("/proc/self", "/proc/thread-self")) {
            if (path.startsWith(self + "/cwd")) {
                return cwd == null ? null : cwd.resolve(Path.of(self + "/cwd").relativize(path)).normalize();
            }
            if (path.startsWith(self + "/root")) {
                return Path.of("/").resolve(Path.of(self + "/root").relativize(path)).normalize();
            }
        }
        return path.getNameCount() >= 3 && List.of("cwd", "root", "fd").contains(path.getName(2).toString()) ? null : path;
    }

    /** The working directory as the walk goes; null once it cannot be known. */
    static final class Cwd {
        Path dir;
        /** Whether the command set CDPATH, so that a cd to a bare name may go elsewhere. */
        boolean cdpath;

        Cwd(Path dir) {
            this.dir = dir;
        }

        Cwd copy() {
            Cwd copy = new Cwd(dir);
            copy.cdpath = cdpath;
            return copy;
        }
    }

    /** What the walk found so far. */
    static final class Collector {
        final List<WriteTarget> writes = new ArrayList<>();
        final List<GitCommand> git = new ArrayList<>();
        final List<String> unknown = new ArrayList<>();
        final List<List<String>> commands = new ArrayList<>();
        /** Names made earlier in the same command ({@code ln -s TARGET NAME}) and the paths they lead to. */
        final java.util.Map<Path, Path> links = new java.util.HashMap<>();

        /** A written file (or tree) named by {@code word}; unknown when the word or the directory is. */
        void file(Word word, Cwd cwd, String part, boolean tree) {
            file(word, cwd.dir, part, tree);
        }

        void file(Word word, Path cwd, String part, boolean tree) {
            String literal = word.literal();
            if (literal != null && Set.of("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty").contains(literal)
                    || word.pattern().startsWith("/dev/fd/")) {
                return;
            }
            if (literal == null && word.fixedDirectory() != null) {
                glob(word, cwd, part, tree);
                return;
            }
            Path path = literal == null ? null : resolve(cwd, literal);
            if (path == null) {
                unknown.add(part);
                return;
            }
            writes.add(new WriteTarget(throughLinks(path), tree, part));
        }

        /** A path through a name the command made itself leads to what that name names. */
        private Path throughLinks(Path path) {
            for (int hops = 0; hops < 8; hops++) {
                Path via = null;
                for (Path at = path; at != null; at = at.getParent()) {
                    if (links.containsKey(at)) {
                        via = at;
                        break;
                    }
                }
                if (via == null) {
                    return path;
                }
                path = links.get(via).resolve(via.relativize(path)).normalize();
            }
            return path;
        }

        /** The paths a glob or brace expansion matches ({@code src/*.orig}), and with {@code tree} all under them. */
        void glob(Word word, Path cwd, String part, boolean tree) {
            if (word.literal() != null) {
                file(word, cwd, part, tree);
                return;
            }
            String dir = word.fixedDirectory();
            Path path = dir == null ? null : resolve(cwd, dir);
            Path pattern = path == null ? null : resolve(cwd, word.pattern());
            if (path == null || pattern == null) {
                unknown.add(part);
            } else {
                writes.add(new WriteTarget(path, tree, part, pattern.toString()));
            }
        }

        /** A formatter's pattern ({@code "src/**}{@code /*.ts"}): what it matches, and under each directory it matches. */
        void pattern(Word word, Path cwd, String part) {
            glob(word, cwd, part, true);
        }
    }
}
