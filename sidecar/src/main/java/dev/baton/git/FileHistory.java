package dev.baton.git;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What git knows of one file's commits in a working tree, for a team: the last commit that changed it, whether that
 * commit reached a remote, and whether another clone's commit is here. {@code relative} is the path from the root.
 */
public final class FileHistory {

    private final Duration timeout;

    public FileHistory(Duration timeout) {
        this.timeout = timeout;
    }

    /** The last commit of HEAD's history that changed the file; empty for a file never committed. */
    public Optional<String> lastCommit(Path root, String relative) throws GitException {
        String commit = text(GitProcess.run(root, timeout, new byte[0], 128, "log", "-1", "--format=%H", "HEAD", "--",
                relative));
        return commit.matches("[0-9a-f]{40,64}") ? Optional.of(commit) : Optional.empty();
    }

    /** Whether the file's working copy (or its staged copy) differs from HEAD's: changes no commit has. */
    public boolean uncommitted(Path root, String relative) throws GitException {
        return !text(GitProcess.run(root, timeout, "status", "--porcelain", "--untracked-files=no", "--", relative))
                .isEmpty();
    }

    /**
     * Whether the commit is in some remote-tracking branch (as of the last fetch or push): "reached the shared
     * remote". A repository with no remote-tracking branch at all cannot tell, and says yes.
     */
    public boolean reachedARemote(Path root, String commit) throws GitException {
        if (text(GitProcess.run(root, timeout, "for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes")).isEmpty()) {
            return true;
        }
        return !text(GitProcess.run(root, timeout, "for-each-ref", "--count=1", "--format=%(refname)", "--contains", commit,
                "refs/remotes")).isEmpty();
    }

    /** Whether the commit object is in this clone at all. */
    public boolean has(Path root, String commit) {
        return succeeds(root, "cat-file", "-e", commit + "^{commit}");
    }

    /** Whether the commit is part of HEAD's history. */
    public boolean inHead(Path root, String commit) {
        return succeeds(root, "merge-base", "--is-ancestor", commit, "HEAD");
    }

    /** Whether git answers yes (exit 0) rather than no or an error. */
    private boolean succeeds(Path root, String... args) {
        try {
            GitProcess.run(root, timeout, args);
            return true;
        } catch (GitException e) {
            return false;
        }
    }

    /** Whether the file in the working tree has the content it has in {@code commit}. */
    public boolean sameAsIn(Path root, String relative, String commit) throws GitException {
        String there = text(GitProcess.run(root, timeout, new byte[0], 128, "rev-parse", "-q", "--verify",
                commit + ":" + relative));
        if (there.isEmpty()) {
            return false;
        }
        String here = text(GitProcess.run(root, timeout, new byte[0], 128, "hash-object", "--", relative));
        return there.equals(here);
    }

    /** The branch checked out, or empty when HEAD is detached. */
    public Optional<String> branch(Path root) throws GitException {
        String name = text(GitProcess.run(root, timeout, new byte[0], 1, "symbolic-ref", "--short", "-q", "HEAD"));
        return name.isEmpty() ? Optional.empty() : Optional.of(name);
    }

    private static String text(byte[] output) {
        return new String(output, StandardCharsets.UTF_8).strip();
    }
}
