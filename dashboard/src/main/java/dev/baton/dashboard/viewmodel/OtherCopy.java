package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.LockInfo;
import java.util.regex.Pattern;

/**
 * Another copy of a repository (a worktree or a clone) where a locked file is being changed too: where, on which
 * branch, and by whom.
 *
 * @param branch the branch checked out there, a commit id when detached, or null when the sidecar could not tell
 */
public record OtherCopy(String worktree, String branch, String agent, String session) {

    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");

    public static OtherCopy of(LockInfo lock) {
        return new OtherCopy(lock.copy().worktree(), lock.copy().branch(),
                lock.holder() == null ? null : lock.holder().agent(), lock.holderSession());
    }

    /** "feature-b (branch feature-b) by claude-code bbbbbbbb": the worktree by the last element of its path. */
    public String shown() {
        return worktreeName() + onBranch() + " by " + (agent == null ? "" : agent + " ")
                + (session == null ? "—" : Board.shortId(session));
    }

    /** "/work/app-b (branch feature-b) by claude-code session bbbbbbbb-2": the whole path and session id. */
    public String described() {
        return worktree + onBranch() + " by " + (agent == null ? "" : agent + " ") + "session "
                + (session == null ? "—" : session);
    }

    /** The last element of the worktree's path. */
    public String worktreeName() {
        if (worktree == null) {
            return "?";
        }
        String path = worktree.replaceAll("/+$", "");
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.isEmpty() ? worktree : name;
    }

    private String onBranch() {
        if (branch == null || branch.isBlank()) {
            return "";
        }
        return COMMIT.matcher(branch).matches() ? " (detached at " + branch.substring(0, 8) + ")" : " (branch " + branch + ")";
    }
}
