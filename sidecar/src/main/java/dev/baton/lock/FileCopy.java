package dev.baton.lock;

/**
 * Where a file sits among the copies of its repository on this machine: the repository every worktree and clone of it
 * shares, the file's path from the working tree's root, and the copy itself (its working tree and the branch checked
 * out there, or the commit of a detached HEAD; null before a first commit).
 *
 * @param repository what every copy of the repository is known by ({@code file:NAME}, {@code origin:HOST/PATH}, or
 *                   {@code gitdir:PATH}, the common git directory of a repository with neither)
 * @param rootCommit the oldest commit of the copy's history, null before one: two histories behind one name are two
 *                   repositories
 * @param rule       what another branch's edit of the file means here: the repository's own rule, or the default
 */
public record FileCopy(String repository, String rootCommit, String path, String worktree, String branch, BranchRule rule) {

    /** Whether {@code other} is the same file in another copy of the same repository. */
    public boolean isAnotherCopyOf(FileCopy other) {
        return repository.equals(other.repository) && path.equals(other.path) && !worktree.equals(other.worktree)
                && (rootCommit == null || other.rootCommit == null || rootCommit.equals(other.rootCommit));
    }

    /** This copy with the branch as it is now. */
    public FileCopy onBranch(String now) {
        return new FileCopy(repository, rootCommit, path, worktree, now, rule);
    }
}
