package dev.baton.deadlock;

import dev.baton.session.SessionAddress;
import java.time.Instant;
import java.util.Map;
import java.util.SortedSet;

/**
 * The wait-for edges that run through other machines of a team, as the team database last said: each waiter and the
 * session that holds what it waits for, where at least one of them runs on another machine (edges between two of this
 * machine's sessions are the local graph's). A session of this machine is named by its id, one of another machine
 * {@code MACHINE/SESSION}, as the audit log names it. Files this machine has are named by their paths here, the others
 * {@code REPOSITORY:PATH}.
 *
 * @param members every session of another machine that the edges name, and this machine's sessions that the team knows
 */
public record TeamWaits(String machine, Map<String, Map<String, SortedSet<String>>> edges, Map<String, Member> members) {

    public static final TeamWaits NONE = new TeamWaits(null, Map.of(), Map.of());

    public TeamWaits {
        edges = Map.copyOf(edges);
        members = Map.copyOf(members);
    }

    /** A session as the team knows it: enough to name it and to choose the same victim on every machine. */
    public record Member(String machine, String session, String agent, String name, Instant startedAt) {
    }

    /** The node name of a session of {@code machine}, seen from {@code here}. */
    public static String node(String here, String machine, String session) {
        return machine.equals(here) ? session : SessionAddress.of(machine, session);
    }
}
