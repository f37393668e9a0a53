package dev.baton.team;

import java.time.Instant;

/** A file another machine's session holds, as the team database says: enough to name the holder to a blocked agent. */
record RemoteHold(SharedPath file, String machine, String host, String session, String agent, String name, String plan,
                  Long pid, Instant since, long fence, boolean leaseValid) {
}
