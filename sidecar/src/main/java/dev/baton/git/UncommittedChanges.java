package dev.baton.git;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which held files carry changes git has not committed: what a supervisor must know before handing a file on, since
 * a released file keeps its holder's uncommitted work for the next holder. One bounded {@code git status} per
 * repository, asking about the named files only.
 */
public final class UncommittedChanges {

    /** The most of a diff shown: a supervisor reads it, and a generated file's would be megabytes. */
    public static final int MAX_DIFF_BYTES = 256 * 1024;

    /** A file's uncommitted changes as {@code git diff} shows them; {@code truncated} when cut at the limit. */
    public record Diff(String text, boolean truncated) {
    }

    private final GitStatus git;
    private final Duration timeout;

    public UncommittedChanges(Duration timeout) {
        this.git = new GitStatus(timeout);
        this.timeout = timeout;
    }

    /**
     * The uncommitted changes of {@code file} (absolute) against HEAD, staged and not, as {@code git diff} shows
     * them; an untracked file shows whole, as added. Empty when it carries none; empty too, and never a wait past the
     * timeout, when git cannot answer (the caller says so, from {@link GitException}).
     */
    public Diff diffOf(String file) throws GitException {
        Path path = Path.of(file);
        Path root = RepoRoot.of(path).orElseThrow(() -> new GitException(file + " is in no git repository"));
        String name = root.relativize(path.normalize()).toString();
        byte[] diff = GitProcess.run(root, timeout, "diff", "--no-color", "--no-ext-diff", "HEAD", "--", name);
        if (diff.length == 0 && git.changedAmong(root, List.of(path)).contains(path.normalize())
                && Files.isRegularFile(path)) {
            // Not in HEAD at all (untracked): the whole file is its change. git diff --no-index says 1 for "differs".
            diff = GitProcess.run(root, timeout, new byte[0], 1, "diff", "--no-color", "--no-ext-diff", "--no-index",
                    "--", "/dev/null", name);
        }
        boolean truncated = diff.length > MAX_DIFF_BYTES;
        String text = new String(diff, 0, Math.min(diff.length, MAX_DIFF_BYTES), StandardCharsets.UTF_8);
        return new Diff(text, truncated);
    }

    /**
     * For each of {@code files} (absolute) in a repository: true when it differs from HEAD or is untracked. A file
     * outside any repository, or of a repository git could not answer for in time, is left out: nobody can say.
     */
    public Map<String, Boolean> of(Collection<String> files) {
        Map<Path, List<String>> byRepo = new LinkedHashMap<>();
        for (String file : files) {
            Optional<Path> root = RepoRoot.of(Path.of(file));
            root.ifPresent(r -> byRepo.computeIfAbsent(r, key -> new ArrayList<>()).add(file));
        }
        Map<String, Boolean> uncommitted = new LinkedHashMap<>();
        byRepo.forEach((root, repoFiles) -> {
            try {
                Set<Path> changed = git.changedAmong(root, repoFiles.stream().map(Path::of).toList());
                repoFiles.forEach(file -> uncommitted.put(file, changed.contains(Path.of(file).normalize())));
            } catch (GitException unknown) {
                // a repository git cannot read in time says nothing of its files
            }
        });
        return uncommitted;
    }
}
