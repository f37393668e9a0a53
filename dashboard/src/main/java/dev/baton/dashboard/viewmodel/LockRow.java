package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.model.SharedFiles;
import dev.baton.dashboard.protocol.LockInfo;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One row of the Locks table: a held file, who holds it and how it stands.
 *
 * @param otherCopies the other copies of the file's repository (worktrees, clones) where the same file is held too,
 *                    changes that will meet at merge time
 * @param uncommitted whether the file carries changes git has not committed, which a release hands on to the next
 *                    holder; null while nobody has said (outside any repository, or not asked yet)
 */
public record LockRow(String file, String shownFile, String holderId, String holder, String holderAgent, Long holderPid,
                      Instant since, Instant lastEdit, State state, int waiters, List<OtherCopy> otherCopies,
                      Boolean uncommitted) {

    public LockRow {
        otherCopies = otherCopies == null ? List.of() : List.copyOf(otherCopies);
    }

    /** How a lock stands, from quiet to worrying. */
    public enum State {
        HELD("held"), EDITING("edit in flight"), HOLDER_DEAD("holder exited");

        private final String shown;

        State(String shown) {
            this.shown = shown;
        }

        @Override
        public String toString() {
            return shown;
        }
    }

    /** The row of {@code lock}; {@code shared} is made once from all the board's locks, for all the rows. */
    public static LockRow of(LockInfo lock, Board board, SharedFiles shared) {
        LockInfo.Holder h = lock.holder();
        String holderId = lock.holderSession();
        State state = h != null && "exited".equals(h.alive()) ? State.HOLDER_DEAD
                : lock.editInFlight() ? State.EDITING : State.HELD;
        int waiters = (int) board.waits().stream().filter(w -> lock.file().equals(w.file())).map(w -> w.waiter())
                .distinct().count();
        String agent = h == null ? null : h.agent();
        return new LockRow(lock.file(), board.shownPath(lock.file(), holderId), holderId, board.label(holderId),
                agent, h == null ? null : h.pid(), lock.since(), lock.lastEdit(), state, waiters,
                shared.elsewhere(lock).stream().map(OtherCopy::of).toList(), board.uncommitted(lock.file()));
    }

    /** "app-b (branch feature-b) by claude-code bbbbbbbb, …"; empty when the file is held in no other copy. */
    public String alsoChangedIn() {
        return otherCopies.stream().map(OtherCopy::shown).collect(Collectors.joining(", "));
    }

    /** The other copies with their whole worktree paths and session ids, one a line; empty when there are none. */
    public String alsoChangedInDescription() {
        return otherCopies.stream().map(OtherCopy::described).collect(Collectors.joining("\n"));
    }

    /** "claude-code session 3f2a1b2c (pid 4121)": how a confirmation names the holder. */
    /** "claude-code 3f2a9c1e (pid 4121)"; a session known by its name also says its agent: "auth (claude-code, pid 4121)". */
    public String holderDescription() {
        boolean named = holderAgent == null || !holder.startsWith(holderAgent + " ");
        String facts = String.join(", ", java.util.stream.Stream.of(named ? holderAgent : null,
                holderPid == null ? null : "pid " + holderPid).filter(java.util.Objects::nonNull).toList());
        return holder + (facts.isEmpty() ? "" : " (" + facts + ")");
    }

    /** The Changes column: "uncommitted" when a release would hand on work, "none" when clean, blank when unknown. */
    public String changes() {
        return uncommitted == null ? "" : uncommitted ? "uncommitted" : "none";
    }
}
