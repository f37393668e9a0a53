package dev.baton.team;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The team as this sidecar sees it, for {@code baton team status}, {@code baton doctor} and the dashboard: the
 * connection, this machine's claims, and every machine of the team with its lease.
 *
 * @param unreachableSince null while connected
 * @param unsynced         files granted here while the database did not answer, not yet claimed in it
 * @param statements       the statements sent to the database since the start, by kind
 * @param sessions         every session of the team that holds files, by machine
 * @param locks            every file held in the team, by any machine, with its holder
 * @param machinesError    why the machines could not be listed, null when they were
 */
public record TeamView(String url, String machine, String host, boolean connected, Instant unreachableSince,
                       String lastError, boolean strict, long ttlSeconds, String scope, int claimed, int unsynced,
                       int knownElsewhere, Map<String, Long> statements, List<TeamMachine> machines, List<TeamSession> sessions,
                       List<TeamLock> locks, String machinesError) {
}
