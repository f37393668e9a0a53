package dev.baton.team;

import java.time.Instant;

/**
 * A file held somewhere in the team, as {@code GET /v1/team} lists it for the dashboard: the repository's shared name,
 * the path in it, and the holder with its machine.
 */
public record TeamLock(String repository, String path, String machine, String host, String session, String agent,
                       String name, String plan, Instant since, long fence, boolean leaseValid) {

    static TeamLock of(RemoteHold hold) {
        return new TeamLock(hold.file().repository(), hold.file().path(), hold.machine(), hold.host(), hold.session(),
                hold.agent(), hold.name(), hold.plan(), hold.since(), hold.fence(), hold.leaseValid());
    }
}
