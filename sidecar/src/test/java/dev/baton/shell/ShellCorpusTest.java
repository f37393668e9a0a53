package dev.baton.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus ({@code shell/corpus.txt}): commands agents run, each with the files it writes, the git
 * commands judged before it, or that it cannot be analysed. The file's header describes the format and the
 * directory tree the commands run in.
 */
class ShellCorpusTest {

    static final Path REPO = Path.of("/repo");
    static final Set<String> DIRECTORIES = Set.of("/repo", "/repo/src", "/repo/src/main", "/repo/docs", "/repo/lib",
            "/repo/test", "/repo/tests", "/repo/build", "/repo/web", "/repo/web/src", "/repo/subdir", "/tmp", "/repo/dist");
    static final Set<String> FILES = Set.of("/repo/src/A.java", "/repo/src/B.java", "/repo/README.md", "/repo/f.py",
            "/repo/subdir/f.py", "/repo/app.py", "/repo/web/src/index.ts", "/repo/package.json");

    static final ShellAnalyzer.FileView VIEW = new ShellAnalyzer.FileView() {
        @Override
        public boolean isDirectory(Path path) {
            return DIRECTORIES.contains(path.toString());
        }

        @Override
        public boolean exists(Path path) {
            return DIRECTORIES.contains(path.toString()) || FILES.contains(path.toString());
        }

        @Override
        public java.util.Optional<String> gitAlias(Path dir, String name) {
            return java.util.Optional.ofNullable(java.util.Map.of("co", "checkout", "nuke", "reset --hard", "st", "status",
                    "up", "!git pull").get(name));
        }
    };

    record Case(String command, List<String> expected, int line) {
        @Override
        public String toString() {
            return "line " + line + ": " + command.replace("\n", "⏎");
        }
    }

    static Stream<Case> corpus() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (InputStream in = ShellCorpusTest.class.getResourceAsStream("/shell/corpus.txt")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1);
            StringBuilder command = null;
            List<String> expected = new ArrayList<>();
            int start = 0;
            for (int i = 0; i <= lines.length; i++) {
                String line = i < lines.length ? lines[i] : "";
                if (line.startsWith("$ ") || line.isBlank() || i == lines.length) {
                    if (command != null) {
                        cases.add(new Case(command.toString(), List.copyOf(expected), start));
                        command = null;
                        expected.clear();
                    }
                    if (line.startsWith("$ ")) {
                        command = new StringBuilder(line.substring(2));
                        start = i + 1;
                    }
                } else if (line.startsWith("| ") && command != null) {
                    command.append('\n').append(line.substring(2));
                } else if (line.equals("|") && command != null) {
                    command.append('\n');
                } else if (line.startsWith("> ") && command != null) {
                    expected.add(line.substring(2).strip());
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void eachCommandOfTheCorpusWritesWhatItsEntrySays(Case entry) {
        ShellAnalysis analysis = new ShellAnalyzer(VIEW, ShellCorpusTest::patchPaths).analyse(entry.command(), REPO);

        assertThat(describe(analysis)).as(entry.toString()).isEqualTo(new TreeSet<>(entry.expected()));
    }

    @org.junit.jupiter.api.Test
    void theCorpusHasAtLeastOneHundredFiftyCommands() throws IOException {
        assertThat(corpus().count()).isGreaterThanOrEqualTo(150);
    }

    /** The analysis in the corpus's own words, sorted. */
    static Set<String> describe(ShellAnalysis analysis) {
        Set<String> lines = new TreeSet<>();
        for (WriteTarget write : analysis.writes()) {
            if (write.glob() != null) {
                lines.add((write.tree() ? "globtree " : "glob ") + shown(Path.of(write.glob())));
            } else {
                lines.add((write.tree() ? "tree " : "write ") + shown(write.path()));
            }
        }
        for (GitCommand git : analysis.git()) {
            StringBuilder line = new StringBuilder("git ").append(git.effect().name().toLowerCase());
            git.paths().forEach(path -> line.append(' ').append(shown(path)));
            if (git.ref() != null) {
                line.append(" ref=").append(git.ref());
            }
            if (git.untracked() && git.effect() != GitCommand.Effect.CLEAN) {
                line.append(" untracked");
            }
            if (git.workDir() != null && !git.workDir().equals(REPO)) {
                line.append(" in ").append(shown(git.workDir()));
            }
            lines.add(line.toString());
        }
        if (!analysis.unknown().isEmpty()) {
            lines.add("unknown");
        }
        if (lines.isEmpty()) {
            lines.add("read-only");
        }
        return lines;
    }

    private static String shown(Path path) {
        if (path.equals(REPO)) {
            return ".";
        }
        return path.startsWith(REPO) ? REPO.relativize(path).toString() : path.toString();
    }

    /** The corpus's apply_patch cases name their files on "*** Update/Add/Delete File:" lines. */
    static List<String> patchPaths(String patch) {
        return patch.lines().filter(l -> l.matches("\\*\\*\\* (Update|Add|Delete) File: .*"))
                .map(l -> l.substring(l.indexOf(':') + 2).strip()).collect(Collectors.toList());
    }
}
