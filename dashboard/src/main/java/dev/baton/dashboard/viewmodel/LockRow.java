package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.LockInfo;
import java.time.Instant;

/** One row of the Locks table: a held file, who holds it and how it stands. */
public record LockRow(String file, String shownFile, String holderId, String holder, String holderAgent, Long holderPid,
                      Instant since, Instant lastEdit, State state, int waiters) {

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

    public static LockRow of(LockInfo lock, Board board) {
        LockInfo.Holder h = lock.holder();
        String holderId = lock.holderSession();
        State state = h != null && "exited".equals(h.alive()) ? State.HOLDER_DEAD
                : lock.editInFlight() ? State.EDITING : State.HELD;
        int waiters = (int) board.waits().stream().filter(w -> lock.file().equals(w.file())).map(w -> w.waiter())
                .distinct().count();
        String agent = h == null ? null : h.agent();
        return new LockRow(lock.file(), board.shownPath(lock.file(), holderId), holderId, board.label(holderId),
                agent, h == null ? null : h.pid(), lock.since(), lock.lastEdit(), state, waiters);
    }

    /** "claude-code session 3f2a1b2c (pid 4121)": how a confirmation names the holder. */
    public String holderDescription() {
        return (holderAgent == null ? "" : holderAgent + " ") + "session " + holder
                + (holderPid == null ? "" : " (pid " + holderPid + ")");
    }
}
