package dev.baton.git;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * How far a file in one copy of a repository has moved from where another branch parted from it: the lines added and
 * removed in that copy's working tree since the merge base of its HEAD and the other branch. Asked when a session
 * starts changing a file another copy changes too, so it is kept a few seconds: a burst of first edits runs git once.
 */
public final class BranchDivergence {

    private static final Duration FRESH = Duration.ofSeconds(5);

    private record Key(Path worktree, String path, String otherBranch) {
    }

    private record Known(OptionalInt lines, long at) {
    }

    private final Duration timeout;
    private final Map<Key, Known> known = new ConcurrentHashMap<>();

    public BranchDivergence(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * The lines the file at {@code path} differs by in {@code worktree} from the merge base of that copy's HEAD and
     * {@code otherBranch}; empty when git cannot say (no common history there, a binary file, too slow).
     */
    public OptionalInt linesChanged(Path worktree, String path, String otherBranch) {
        Key key = new Key(worktree, path, otherBranch);
        long now = System.nanoTime();
        Known seen = known.get(key);
        if (seen != null && now - seen.at() < FRESH.toNanos()) {
            return seen.lines();
        }
        OptionalInt lines = ask(worktree, path, otherBranch);
        known.put(key, new Known(lines, now));
        known.entrySet().removeIf(entry -> now - entry.getValue().at() >= FRESH.toNanos());
        return lines;
    }

    private OptionalInt ask(Path worktree, String path, String otherBranch) {
        try {
            String base = text(GitProcess.run(worktree, timeout, new byte[0], 128, "merge-base", "HEAD", otherBranch));
            if (!base.matches("[0-9a-f]{40,64}")) {
                return OptionalInt.empty();
            }
            String numstat = text(GitProcess.run(worktree, timeout, new byte[0], 0, "diff", "--numstat", base, "--", path));
            if (numstat.isEmpty()) {
                return untracked(worktree, path, base);
            }
            int lines = 0;
            for (String line : numstat.lines().toList()) {
                String[] fields = line.split("\t", 3);
                if (fields.length < 3 || !fields[0].matches("\\d+") || !fields[1].matches("\\d+")) {
                    return OptionalInt.empty(); // binary
                }
                lines += Integer.parseInt(fields[0]) + Integer.parseInt(fields[1]);
            }
            return OptionalInt.of(lines);
        } catch (GitException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * A file git's diff does not show: unchanged, or new and not added in that copy (git diffs only what it tracks), whose
     * every line then differs.
     */
    private OptionalInt untracked(Path worktree, String path, String base) throws GitException {
        Path file = worktree.resolve(path);
        boolean inBase = GitProcess.run(worktree, timeout, new byte[0], 128, "cat-file", "-t", base + ":" + path).length > 0;
        if (inBase || !Files.isRegularFile(file)) {
            return OptionalInt.of(0);
        }
        try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return OptionalInt.of((int) lines.count());
        } catch (IOException | UncheckedIOException e) {
            return OptionalInt.empty(); // not text
        }
    }

    private static String text(byte[] output) {
        return new String(output, StandardCharsets.UTF_8).strip();
    }
}
