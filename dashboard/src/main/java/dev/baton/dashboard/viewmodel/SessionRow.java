package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.SessionInfo;
import java.time.Instant;
import java.util.stream.Collectors;

/** One row of the Sessions table. */
public record SessionRow(String id, String shortId, String agent, String label, String cwd, String alive,
                         Instant startedAt, Instant lastHeartbeat, int locksHeld, String waitingFor, String plan) {

    public static SessionRow of(SessionInfo s, Board board) {
        String waiting = board.waits().stream()
                .filter(w -> s.id().equals(w.waiter()))
                .map(w -> board.label(w.holder()) + " (" + board.shownPath(w.file(), s.id()) + ")")
                .distinct()
                .collect(Collectors.joining(", "));
        String label = s.name() != null && !s.name().isBlank() ? s.name() : s.cwd() != null ? s.cwd() : "";
        return new SessionRow(s.id(), Board.shortId(s.id()), s.agent() == null ? "?" : s.agent(), label, s.cwd(),
                s.alive() == null ? "unknown" : s.alive(), s.startedAt(), s.lastHeartbeat(),
                board.locksOf(s.id()).size(), waiting, plan(s.plan()));
    }

    private static String plan(SessionInfo.PlanInfo plan) {
        if (plan == null) {
            return "";
        }
        String goal = plan.goal() == null ? "" : plan.goal();
        String task = plan.currentTask() == null ? "" : plan.currentTask();
        if (task.isBlank()) {
            return goal;
        }
        return goal.isBlank() ? task : goal + " — now: " + task;
    }

    public boolean processGone() {
        return "exited".equals(alive);
    }
}
