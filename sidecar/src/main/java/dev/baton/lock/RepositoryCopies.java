package dev.baton.lock;

import java.util.Optional;

/**
 * Names a file by its repository and its place in it, so that the copies of one repository on this machine (its
 * worktrees and clones) share one lock space. Implemented where git is known ({@code git/WorkTreeCopies}).
 */
public interface RepositoryCopies {

    /** No copies: every file is only its path. */
    RepositoryCopies NONE = new RepositoryCopies() {
        @Override
        public Optional<FileCopy> of(String file) {
            return Optional.empty();
        }

        @Override
        public Optional<String> branchOf(String worktree) {
            return Optional.empty();
        }

        @Override
        public boolean exists(String worktree) {
            return true;
        }
    };

    /**
     * The file's copy; empty for a file in no working tree, and while git cannot name its repository. May run git
     * once per working tree (its identity is kept), so it is asked outside the ledger.
     */
    Optional<FileCopy> of(String file);

    /** The branch checked out in the working tree now (the commit of a detached HEAD), read without running git. */
    Optional<String> branchOf(String worktree);

    /** Whether the working tree is still there: a removed worktree's holds end. */
    boolean exists(String worktree);
}
