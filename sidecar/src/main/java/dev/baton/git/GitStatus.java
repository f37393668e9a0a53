package dev.baton.git;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of some files of a working tree differ from HEAD: staged or unstaged changes, deletions, either name of a
 * rename, untracked files. Runs {@code git status --porcelain -z} with a bounded wait, so a slow repository can
 * delay a turn's end but never hang it.
 */
public final class GitStatus {

    /**
     * Up to this many files git is asked about by name, above it about the whole tree. Named, git skips the rest of
     * the tree (no stat of other files, no walk of other directories) but still reads the whole index and matches
     * every entry against every name: about 1 ms per name on 50,000 files, so the whole tree's status is cheaper
     * from 150–200 names, on a repository of any size (docs/PERFORMANCE.md, "Turn end").
     */
    static final int NAMED_LIMIT = 100;
    /** The names' bytes at most, far below what the kernel takes on one command line (128 KiB per argument). */
    private static final int NAMED_BYTES_LIMIT = 64 * 1024;

    private final Duration timeout;
    private final int namedLimit;

    public GitStatus(Duration timeout) {
        this(timeout, NAMED_LIMIT);
    }

    GitStatus(Duration timeout, int namedLimit) {
        this.timeout = timeout;
        this.namedLimit = namedLimit;
    }

    /**
     * The ones of {@code files} (absolute, under {@code repoRoot}, in no nested repository) with a change or untracked;
     * an ignored file, or one neither on disk nor in git, has none.
     */
    public Set<Path> changedAmong(Path repoRoot, Collection<Path> files) throws GitException {
        Set<Path> asked = new HashSet<>();
        List<String> args = new ArrayList<>(List.of("status", "--porcelain", "-z", "--untracked-files=all", "--no-renames"));
        List<String> names = new ArrayList<>();
        long bytes = 0;
        for (Path file : files) {
            Path normal = file.normalize();
            asked.add(normal);
            String name = repoRoot.relativize(normal).toString();
            names.add(name);
            bytes += name.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        if (asked.isEmpty()) {
            return asked;
        }
        if (names.size() <= namedLimit && bytes <= NAMED_BYTES_LIMIT) {
            args.add("--"); // GitProcess makes the names literal: a file named a*b.txt or :!x is no pattern
            args.addAll(names);
        }
        Set<Path> changed = parse(repoRoot, GitProcess.run(repoRoot, timeout, args.toArray(String[]::new)));
        changed.retainAll(asked);
        return changed;
    }

    /** Porcelain v1 with -z: entries {@code XY PATH\0}; with --no-renames there is never a second path. */
    static Set<Path> parse(Path repoRoot, byte[] porcelain) {
        Set<Path> changed = new HashSet<>();
        String text = new String(porcelain, StandardCharsets.UTF_8);
        for (String entry : text.split("\0")) {
            if (entry.length() > 3) {
                changed.add(repoRoot.resolve(entry.substring(3)).normalize());
            }
        }
        return changed;
    }
}
