package dev.baton.dashboard.protocol;

import java.time.Instant;

/**
 * One held file lock as {@code GET /v1/locks} and the event stream describe it.
 *
 * @param copy where the file sits among the copies of its repository; null for a file of no repository, and from a
 *             sidecar that does not say
 */
public record LockInfo(String file, Holder holder, Instant since, Instant lastEdit, boolean editInFlight, Copy copy) {

    /** The holding session, with enough facts to judge whether it is still working; {@code label} as in sessions. */
    public record Holder(String session, String label, String agent, Long pid, String alive, String host, String cwd, Instant since,
                         Instant lastEdit, Instant lastHeartbeat, String name, String plan) {
    }

    /**
     * A file as one copy of a repository (a clone or a worktree) holds it: the same {@code repository} and
     * {@code path} in another {@code worktree} is the same file changed in another copy.
     *
     * @param repository the repository's name shared by its copies ({@code origin:…}, {@code file:…}, {@code gitdir:…})
     * @param path       repository-relative, '/'-separated
     * @param worktree   the absolute path of this copy's working tree
     * @param branch     the branch checked out there, a commit id when detached, or null
     */
    public record Copy(String repository, String path, String worktree, String branch) {
    }

    public String holderSession() {
        return holder == null ? null : holder.session();
    }
}
