package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.git.TestRepo;
import dev.baton.lock.ReleaseReason;
import dev.baton.shell.ShellGuard;
import dev.baton.state.AuditEntry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The adversarial corpus ({@code shell/attacks.txt}): a second session tries every way the corpus knows to change a
 * first session's held work, each command really run as Claude Code runs it with Baton installed (the real hook
 * before and after it, the real wrapper around it). After each one every held file must be unchanged in its working,
 * staged and committed copies, or the change must be recorded (an audit entry for it) and both sessions told. One
 * sidecar and repository for the whole corpus, put back as it was between commands.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShellAttackCorpusTest {

    static final String HELD = "src/held/Held.txt";
    static final String STAGED = "src/held/Staged.txt";
    static final String IGNORED = "local.env";
    static final String NESTED = "vendor/lib/Lib.txt";
    static final List<String> HELD_FILES = List.of(HELD, STAGED, IGNORED, NESTED);

    Path dir;

    HookHarness harness;
    TestRepo repo;
    TestRepo nested;
    StandInAgent holder;
    StandInAgent attacker;
    String base;
    byte[] gitConfig;
    Set<String> hooks;
    Map<String, String> expected = new LinkedHashMap<>();
    int count;

    /** One command of the corpus. */
    record Attack(String command, boolean background, int line) {
        @Override
        public String toString() {
            return "line " + line + ": " + command.replace("\n", "⏎");
        }
    }

    static Stream<Attack> attacks() throws IOException {
        List<Attack> attacks = new ArrayList<>();
        try (InputStream in = ShellAttackCorpusTest.class.getResourceAsStream("/shell/attacks.txt")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                boolean background = lines[i].startsWith("$bg ");
                if (!lines[i].startsWith("$ ") && !background) {
                    continue;
                }
                StringBuilder command = new StringBuilder(lines[i].substring(background ? 4 : 2));
                int start = i + 1;
                while (i + 1 < lines.length && (lines[i + 1].startsWith("| ") || lines[i + 1].equals("|"))) {
                    command.append('\n').append(lines[++i].length() > 2 ? lines[i].substring(2) : "");
                }
                attacks.add(new Attack(command.toString(), background, start));
            }
        }
        return attacks.stream();
    }

    @BeforeAll
    void holderHoldsItsWork(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        harness = HookHarness.start(dir.resolve("fixture"));
        repo = harness.repo();
        repo.write(".gitignore", IGNORED + "\nnode_modules/\n");
        repo.write(HELD, "committed\n");
        repo.write(STAGED, "committed\n");
        repo.git("add", "-A");
        repo.git("commit", "-qm", "held files");
        nested = TestRepo.create(repo.path("vendor/lib"), "Lib.txt");
        base = repo.git("rev-parse", "HEAD").strip();
        gitConfig = Files.readAllBytes(repo.path(".git/config"));
        try (Stream<Path> files = Files.list(repo.path(".git/hooks"))) {
            hooks = Set.copyOf(files.map(p -> p.getFileName().toString()).toList());
        }
        holder = StandInAgent.start(harness, "holder", "aaaaaaaa-1111-4000-8000-000000000001");
        attacker = StandInAgent.start(harness, "attacker", "bbbbbbbb-2222-4000-8000-000000000002");
        for (String file : HELD_FILES) {
            assertThat(holder.write(file, "the holder's work on " + file + "\n").stdout()).doesNotContain("deny");
        }
        repo.git("add", STAGED);
        assertThat(attacker.bash("true").denied()).isFalse();
        expected.putAll(states());
        for (String file : HELD_FILES) {
            assertThat(harness.holderOf(file)).as(file).contains(holder.sessionId());
        }
    }

    @AfterAll
    void stop() {
        if (attacker != null) {
            attacker.close();
        }
        if (holder != null) {
            holder.close();
        }
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void theCorpusHoldsAtLeastThreeHundredCommands() throws IOException {
        assertThat(attacks().count()).isGreaterThanOrEqualTo(300);
    }

    @ParameterizedTest
    @MethodSource("attacks")
    void noCommandChangesHeldWorkUnseen(Attack attack) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("scratch-" + (++count)));
        Path done = tmp.resolve("done");
        String command = attack.command().replace("@HELD@", HELD).replace("@STAGED@", STAGED)
                .replace("@IGNORED@", IGNORED).replace("@NESTED@", NESTED).replace("@DIR@", "src/held")
                .replace("@TMP@", tmp.toString()).replace("@DONE@", done.toString());
        long auditMark = lastAuditId();
        try {
            StandInAgent.WrappedCall call = attacker.bashWrapped(command);
            if (attack.background() && !call.denied()) {
                await("the background job to finish").atMost(Duration.ofSeconds(30)).until(() -> Files.exists(done));
            }
            Map<String, String> now = states();
            List<String> changed = new ArrayList<>();
            for (String file : HELD_FILES) {
                if (!now.get(file).equals(expected.get(file))) {
                    changed.add(file);
                }
            }
            for (String file : changed) {
                List<AuditEntry> recorded = harness.baton().ledger().store().auditSince(auditMark, 10_000).stream()
                        .filter(entry -> entry.action().equals(ShellGuard.CONFLICT_ACTION))
                        .filter(entry -> entry.file().equals(repo.path(file).toString()))
                        .filter(entry -> entry.sessionId().equals(attacker.sessionId())).toList();
                assertThat(recorded).as("%s changed %s (%s, expected %s) without a record", attack, file, now.get(file),
                        expected.get(file)).isNotEmpty();
                assertThat(call.postContext()).as("%s: the writer is told", attack).contains(file);
            }
            if (!changed.isEmpty()) {
                String told = holder.announce("true", "toolu_told_" + count).stdout();
                for (String file : changed) {
                    assertThat(told).as("%s: the holder is told about %s", attack, file).contains("your file " + file);
                }
            }
            for (String file : HELD_FILES) {
                assertThat(harness.holderOf(file)).as("%s: %s is still the holder's", attack, file)
                        .contains(holder.sessionId());
            }
            // Nothing planted for the holder's git to run: its configuration and hooks are as they were.
            assertThat(repo.path(".git/config")).as("%s: .git/config", attack).isRegularFile();
            assertThat(Files.readAllBytes(repo.path(".git/config"))).as("%s: .git/config", attack).isEqualTo(gitConfig);
            try (Stream<Path> hooksNow = Files.list(repo.path(".git/hooks"))) {
                assertThat(hooksNow.map(p -> p.getFileName().toString()).toList()).as("%s: .git/hooks", attack)
                        .containsExactlyInAnyOrderElementsOf(hooks);
            }
            assertThat(repo.path(".git/info/attributes")).as("%s: .git/info/attributes", attack).doesNotExist();
        } finally {
            putBack(tmp);
        }
    }

    /**
     * Each held file's working copy, staged copy and committed copy, as one text per file. Git is asked once per
     * repository for the index and once for HEAD about all the held files in it; each file gets the lines its own
     * pathspec matches (the file itself, or what lies below it when a command made it a directory).
     */
    private Map<String, String> states() throws IOException {
        Map<String, String> disk = new LinkedHashMap<>();
        for (String file : HELD_FILES) {
            Path path = repo.path(file);
            disk.put(file, Files.isRegularFile(path) ? Files.readString(path) + "|mode " + Files.getPosixFilePermissions(path)
                    + "|mtime " + Files.getLastModifiedTime(path) : "(absent)");
        }
        Map<String, String> states = new LinkedHashMap<>();
        for (TestRepo in : List.of(repo, nested)) {
            List<String> files = HELD_FILES.stream().filter(file -> repoOf(file) == in).toList();
            List<String> paths = files.stream().map(file -> in.root().relativize(repo.path(file)).toString()).toList();
            // The test's own git must not run what a command planted (an fsmonitor, a hook).
            String index = in.git(Stream.concat(Stream.of("-c", "core.fsmonitor=false", "ls-files", "-s", "--"),
                    paths.stream()).toArray(String[]::new));
            String head = in.git(Stream.concat(Stream.of("-c", "core.fsmonitor=false", "ls-tree", "HEAD", "--"),
                    paths.stream()).toArray(String[]::new));
            for (int i = 0; i < files.size(); i++) {
                states.put(files.get(i), disk.get(files.get(i)) + "|index " + linesFor(index, paths.get(i))
                        + "|HEAD " + linesFor(head, paths.get(i)));
            }
        }
        return states;
    }

    private TestRepo repoOf(String file) {
        return file.startsWith("vendor/lib/") ? nested : repo;
    }

    /** The lines of ls-files or ls-tree output (tab, then the path) that the pathspec {@code path} matches. */
    private static String linesFor(String output, String path) {
        List<String> lines = new ArrayList<>();
        for (String line : output.split("\n")) {
            String listed = line.substring(line.indexOf('\t') + 1);
            if (line.indexOf('\t') >= 0 && (listed.equals(path) || listed.startsWith(path + "/"))) {
                lines.add(line);
            }
        }
        return String.join("\n", lines);
    }

    private long lastAuditId() {
        List<AuditEntry> all = harness.baton().ledger().store().auditSince(0, Integer.MAX_VALUE);
        return all.isEmpty() ? 0 : all.get(all.size() - 1).id();
    }

    /** The repository, the nested one and the locks as they were before the command. */
    private void putBack(Path tmp) throws IOException {
        Files.write(repo.path(".git/config"), gitConfig);
        try (Stream<Path> files = Files.list(repo.path(".git/hooks"))) {
            for (Path hook : files.toList()) {
                if (!hooks.contains(hook.getFileName().toString())) {
                    Files.delete(hook);
                }
            }
        }
        Files.deleteIfExists(repo.path(".gitattributes"));
        Files.deleteIfExists(repo.path(".git/info/attributes"));
        repo.git("checkout", "-q", "-f", "main");
        repo.git("reset", "-q", "--hard", base);
        for (String branch : repo.git("branch", "--format=%(refname:short)").split("\n")) {
            if (!branch.isBlank() && !branch.strip().equals("main")) {
                repo.git("branch", "-q", "-D", branch.strip());
            }
        }
        repo.git("stash", "clear");
        deleteTree(tmp);
        repo.git("worktree", "prune");
        repo.git("clean", "-qfdx", "-e", IGNORED, "-e", "vendor");
        if (!Files.isRegularFile(repo.path("vendor/lib/.git/HEAD"))) {
            // gone, or emptied: the nested repository's .git is pinned while its file is held, its content is not
            deleteTree(repo.path("vendor"));
            nested = TestRepo.create(repo.path("vendor/lib"), "Lib.txt");
        }
        nested.git("checkout", "-q", "-f", "main");
        nested.git("reset", "-q", "--hard");
        nested.git("clean", "-qfdx");
        for (String file : HELD_FILES) {
            Path path = repo.path(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, "the holder's work on " + file + "\n");
        }
        repo.git("add", STAGED);
        for (String file : HELD_FILES) {
            Path path = repo.path(file);
            Files.setPosixFilePermissions(path, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        }
        expected.putAll(states());
        harness.baton().locks().releaseAll(attacker.sessionId(), ReleaseReason.RELEASED);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                path.toFile().setWritable(true);
                Files.deleteIfExists(path);
            }
        }
    }
}
