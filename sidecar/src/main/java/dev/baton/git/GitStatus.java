package dev.baton.git;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * The files of a working tree that differ from HEAD: staged or unstaged changes, deletions, renames and
 * untracked files. Runs {@code git status --porcelain -z} with a bounded wait, so a slow repository can
 * delay a turn's end but never hang it.
 */
public final class GitStatus {

    private final Duration timeout;

    public GitStatus(Duration timeout) {
        this.timeout = timeout;
    }

    /** Absolute paths (under {@code repoRoot}) of every changed or untracked file; ignored files are not listed. */
    public Set<Path> changedFiles(Path repoRoot) throws GitException {
        return parse(repoRoot, GitProcess.run(repoRoot, timeout, "status", "--porcelain", "-z",
                "--untracked-files=all", "--no-renames"));
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
