package dev.baton.dashboard.viewmodel;

import dev.baton.dashboard.model.Board;
import dev.baton.dashboard.protocol.TeamInfo;
import java.time.Instant;

/**
 * One row of the team's lock table: a file held on some machine of the team, with its holder.
 *
 * @param local      held by a session of this sidecar's machine
 * @param repository the repository's shared name as a person reads it ("github.com/acme/shop"), without where the
 *                   name came from ({@code origin:} the remote, {@code file:} a committed .baton-repository file)
 * @param holder     the session's name, else its short id
 * @param lease      "valid", or "expired" once the holder's machine stopped renewing its lease (the file is free to take)
 */
public record TeamLockRow(String key, String machine, boolean local, String host, String repository, String path,
                          String session, String holder, String agent, String plan, Instant since, long fence,
                          String lease) {

    public static TeamLockRow of(TeamInfo.Lock lock, String thisMachine) {
        String session = lock.session() == null ? "" : lock.session();
        String holder = lock.name() != null && !lock.name().isBlank() ? lock.name() : Board.shortId(session);
        return new TeamLockRow(String.join("\n", lock.repository(), lock.path(), lock.machine(), session),
                lock.machine(), lock.machine() != null && lock.machine().equals(thisMachine), orEmpty(lock.host()),
                shownRepository(lock.repository()), orEmpty(lock.path()), session, holder, orEmpty(lock.agent()),
                orEmpty(lock.plan()), lock.since(), lock.fence(), lock.leaseValid() ? "valid" : "expired");
    }

    static String shownRepository(String identity) {
        if (identity == null) {
            return "";
        }
        for (String source : new String[] {"origin:", "file:"}) {
            if (identity.startsWith(source)) {
                return identity.substring(source.length());
            }
        }
        return identity;
    }

    public boolean leaseExpired() {
        return "expired".equals(lease);
    }

    /** "claude-code session 3f2a1b2c-… on m2 (build-box)": the holder in full, for a tooltip. */
    public String holderDescription() {
        return (agent.isEmpty() ? "" : agent + " ") + "session " + session + " on " + machine
                + (host.isEmpty() ? "" : " (" + host + ")") + ", fencing number " + fence;
    }

    static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
