package dev.baton.lock;

/**
 * A file held in one copy of its repository (a worktree, a clone): the held path, the copy's working tree and branch,
 * and its holder.
 */
public record HeldCopy(String file, String worktree, String branch, Holder holder) {
}
