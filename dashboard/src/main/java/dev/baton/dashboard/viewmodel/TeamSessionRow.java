package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.TeamInfo;

/** One row of the team's session table: a session of some machine that holds files. */
public record TeamSessionRow(String key, String machine, boolean local, String session, String shortSession,
                             String agent, String name, String plan, int locks) {

    public static TeamSessionRow of(TeamInfo.Session session, String thisMachine) {
        String id = TeamLockRow.orEmpty(session.session());
        return new TeamSessionRow(session.machine() + "\n" + id, session.machine(),
                session.machine() != null && session.machine().equals(thisMachine), id, Board.shortId(id),
                TeamLockRow.orEmpty(session.agent()), TeamLockRow.orEmpty(session.name()),
                TeamLockRow.orEmpty(session.plan()), session.locks());
    }
}
