package dev.baton.team;

/**
 * The last commit that changed a shared file when its holder let it go: what the next holder's clone must have
 * before it edits the file (else it edits a stale copy, and one of the two changes is lost in the merge).
 */
record LastChange(String commit, String branch, String machine, String session) {
}
