package dev.baton.shell;

import java.nio.file.Path;
import java.util.List;

/**
 * A git command that Baton judges against the whole repository before it runs, because what it touches is not
 * named on its command line: a discard, a stage, a commit, a branch switch, or any command writing the index.
 *
 * @param workDir the directory git runs in ({@code -C} applied); null when the command line leaves it unknown
 * @param paths the pathspecs it is limited to, resolved; empty for the whole working tree
 * @param ref the commit or branch it moves to ({@link Effect#SWITCH}), else null
 * @param untracked whether it also removes untracked files ({@code stash -u}, {@code clean})
 * @param indexWrite whether it writes the index, so that it must not run beside another session's index writer
 * @param part the simple command, as written
 */
public record GitCommand(Effect effect, Path workDir, List<Path> paths, String ref, boolean untracked,
                         boolean indexWrite, String part) {

    public GitCommand {
        paths = List.copyOf(paths);
    }

    /** What the command does to other people's uncommitted work. */
    public enum Effect {
        /** Throws working-tree changes away: checkout/restore of paths, reset --hard, stash, checkout -f. */
        DISCARD,
        /** Deletes untracked files: clean -f. */
        CLEAN,
        /** Stages changes: add (the whole tree with -A, . or -u). */
        STAGE,
        /** Commits what is staged. */
        COMMIT,
        /** Commits every tracked change: commit -a, or the named paths: commit PATH. */
        COMMIT_ALL,
        /** Moves the working tree to another commit: checkout/switch BRANCH, reset --keep. */
        SWITCH,
        /** Takes staged changes back out of the index: reset [PATH…], restore --staged. */
        UNSTAGE,
        /** Changes the index entries of its paths whatever their state: rm --cached, update-index. */
        INDEX,
        /**
         * Makes git run a program of the command's choosing in every later git command in the repository, whoever runs
         * it: {@code git config core.fsmonitor|core.hooksPath|filter.*|…}, an alias running a shell command.
         */
        PLANT,
        /** Writes the index, and perhaps files no one can name beforehand (merge, rebase, stash pop, am…). */
        OTHER
    }
}
