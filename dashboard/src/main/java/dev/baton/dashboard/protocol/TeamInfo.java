package dev.baton.dashboard.protocol;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The team a sidecar belongs to, as {@code GET /v1/team} describes it: the database connection as this sidecar sees
 * it, every machine with its lease, and every session and file held anywhere in the team.
 *
 * @param machine          this sidecar's machine name in the team
 * @param unreachableSince null while the database answers
 * @param unsynced         files granted here while the database did not answer, not yet claimed in it
 * @param machinesError    why the machines could not be listed, null when they were
 */
public record TeamInfo(String url, String machine, String host, boolean connected, Instant unreachableSince,
                       String lastError, boolean strict, long ttlSeconds, String scope, int claimed, int unsynced,
                       int knownElsewhere, Map<String, Long> statements, List<Machine> machines, List<Session> sessions,
                       List<Lock> locks, String machinesError) {

    public TeamInfo {
        // A sidecar that could not list the team sends the lists empty or not at all.
        statements = statements == null ? Map.of() : Map.copyOf(statements);
        machines = machines == null ? List.of() : List.copyOf(machines);
        sessions = sessions == null ? List.of() : List.copyOf(sessions);
        locks = locks == null ? List.of() : List.copyOf(locks);
    }

    /** A machine of the team: its lease on the database's clock and what its sessions hold. */
    public record Machine(String machine, String host, Instant leaseUntil, boolean leaseValid, Instant renewedAt,
                          int sessions, int locks) {
    }

    /** A session of some machine that holds files. */
    public record Session(String machine, String session, String agent, String name, String plan, int locks) {
    }

    /** A file held somewhere in the team: the repository's shared name, the path in it, and its holder. */
    public record Lock(String repository, String path, String machine, String host, String session, String agent,
                       String name, String plan, Instant since, long fence, boolean leaseValid) {
    }
}
