package dev.baton.team;

import dev.baton.git.FileHistory;
import dev.baton.git.GitException;
import dev.baton.git.RepoRoot;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The loss no per-machine lock can stop: machine one commits a file, machine two edits its own older copy, and one of
 * the two changes is lost in the merge. What a releasing clone leaves for the next holder ({@link #lastChange}), what
 * the next holder's clone must have ({@link #problem}), and when a clean file may go back at all
 * ({@link #reachedARemote}).
 */
final class StaleBase {

    private final FileHistory history;

    StaleBase(FileHistory history) {
        this.history = history;
    }

    /** The last commit of the file in this clone, for the next holder on another machine; null when there is none. */
    LastChange lastChange(String file, SharedPath key, String machine) {
        Optional<Path> root = RepoRoot.of(Path.of(file));
        if (root.isEmpty()) {
            return null;
        }
        try {
            Optional<String> commit = history.lastCommit(root.get(), key.path());
            return commit.map(c -> new LastChange(c, currentBranch(root.get()), machine, null,
                    unlessGitFails(() -> history.reachedARemote(root.get(), c)),
                    unlessGitFails(() -> history.uncommitted(root.get(), key.path())))).orElse(null);
        } catch (GitException e) {
            return null;
        }
    }

    /**
     * Why this clone may not edit the file yet, as the refusal says it: the previous holder's last commit must be here
     * (and in HEAD, when it was made on the branch checked out here, unless the file already has its content).
     */
    Optional<String> problem(String file, SharedPath key, LastChange previous) {
        Path root = RepoRoot.of(Path.of(file)).orElse(null);
        if (root == null) {
            return Optional.empty();
        }
        String commit = previous.commit();
        String problem = null;
        boolean here = history.has(root, commit);
        if (!here && Boolean.FALSE.equals(previous.pushed())) {
            problem = "machine " + previous.machine() + " had not pushed it when its session let the file go, so `git pull`"
                    + " cannot bring it until it is pushed: ask that"
                    + " session (`baton msg send " + previous.session() + " \"…\"`) or whoever works there to push it,"
                    + " then pull";
        } else if (!here) {
            problem = "this clone does not have it; run `git pull` (or `git fetch` and merge " + (previous.branch() == null
                    ? "their branch" : "origin/" + previous.branch()) + ")";
        } else if (previous.branch() != null && !history.inHead(root, commit)
                && previous.branch().equals(currentBranch(root)) && !sameContent(root, key.path(), commit)) {
            problem = "this branch does not contain it yet; run `git pull` (or merge origin/" + previous.branch() + ")";
        }
        if (problem == null) {
            return Optional.empty();
        }
        return Optional.of("pull first: it was last changed by session " + previous.session() + " on machine "
                + previous.machine() + " in commit " + commit.substring(0, Math.min(12, commit.length()))
                + (previous.branch() == null ? "" : " on branch " + previous.branch()) + ", and " + problem
                + ", then edit it again. Editing the older copy would lose one of the two changes in the merge");
    }

    /** One question to git about the clone. */
    private interface GitQuestion {
        boolean ask() throws GitException;
    }

    /** The answer, or null ("cannot tell") when git could not give one. */
    private static Boolean unlessGitFails(GitQuestion question) {
        try {
            return question.ask();
        } catch (GitException e) {
            return null;
        }
    }

    /**
     * Whether a clean file may go back at its turn's end: not while the last commit that changed it is only in this
     * clone (another machine would take it and edit the copy before that commit).
     */
    boolean reachedARemote(String file, SharedPath key) {
        Optional<Path> root = RepoRoot.of(Path.of(file));
        if (root.isEmpty()) {
            return true;
        }
        try {
            Optional<String> last = history.lastCommit(root.get(), key.path());
            return last.isEmpty() || history.reachedARemote(root.get(), last.get());
        } catch (GitException e) {
            return false; // cannot tell: keep it, the session's end frees it
        }
    }

    private String currentBranch(Path root) {
        try {
            return history.branch(root).orElse(null);
        } catch (GitException e) {
            return null;
        }
    }

    private boolean sameContent(Path root, String relative, String commit) {
        try {
            return history.sameAsIn(root, relative, commit);
        } catch (GitException e) {
            return false;
        }
    }
}
