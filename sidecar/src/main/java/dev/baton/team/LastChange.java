package dev.baton.team;

/**
 * The last commit that changed a shared file when its holder let it go: what the next holder's clone must have
 * before it edits the file (else it edits a stale copy, and one of the two changes is lost in the merge).
 */
/**
 * @param pushed whether the commit had reached a remote of the releasing clone; null when it could not tell
 * @param uncommitted whether the releasing clone still had changes of the file that no commit has; null when it could
 *                    not tell
 */
record LastChange(String commit, String branch, String machine, String session, Boolean pushed, Boolean uncommitted) {
}
