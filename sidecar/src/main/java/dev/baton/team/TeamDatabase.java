package dev.baton.team;

import dev.baton.deadlock.TeamWaits;
import dev.baton.session.SessionAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Every statement Baton sends to the team's PostgreSQL, and the schema they need: the one owner of that wire shape.
 * Times are the database's ({@code now()}), never a machine's, so machines with skewed clocks agree on every lease.
 * Each statement runs on its own (autocommit): a claim, its event and its notification are one statement.
 */
final class TeamDatabase {

    static final String CHANNEL = "baton_team";

    private TeamDatabase() {
    }

    static Connection open(TeamUrl url, Duration connectBound, Duration readBound) throws SQLException {
        Connection connection = DriverManager.getConnection(url.jdbcUrl(),
                url.properties((int) Math.max(1, connectBound.toSeconds()), (int) Math.max(1, readBound.toSeconds())));
        connection.setAutoCommit(true);
        return connection;
    }

    /** Joins (or joins again) with a fresh lease; returns the database's clock when it did. */
    static java.time.Instant join(Connection connection, String machine, String host, Duration ttl) throws SQLException {
        try (PreparedStatement join = connection.prepareStatement("""
                INSERT INTO baton_team_machines (machine, host, lease_until, renewed_at, joined_at)
                VALUES (?, ?, now() + ? * interval '1 millisecond', now(), now())
                ON CONFLICT (machine) DO UPDATE SET host = EXCLUDED.host, lease_until = EXCLUDED.lease_until,
                  renewed_at = EXCLUDED.renewed_at
                RETURNING now()""")) {
            join.setString(1, machine);
            join.setString(2, host);
            join.setLong(3, ttl.toMillis());
            try (ResultSet row = join.executeQuery()) {
                row.next();
                return row.getTimestamp(1).toInstant();
            }
        }
    }

    /** The lease renewal, one statement whatever the machine holds. */
    enum Renewal { RENEWED, LAPSED, MISSING }

    /**
     * A renewal's answer, how many claims the database has for the machine (-1 when it was missing), and the
     * database's clock when it answered (null when it was missing).
     */
    record Renewed(Renewal renewal, long claims, java.time.Instant databaseNow) {
    }


    static Renewed renew(Connection connection, String machine, Duration ttl) throws SQLException {
        try (PreparedStatement renew = connection.prepareStatement("""
                UPDATE baton_team_machines m SET lease_until = now() + ? * interval '1 millisecond', renewed_at = now()
                FROM (SELECT lease_until AS was FROM baton_team_machines WHERE machine = ?) old
                WHERE m.machine = ? RETURNING old.was < now(), (SELECT count(*) FROM baton_team_claims WHERE machine = ?),
                  now()""")) {
            renew.setLong(1, ttl.toMillis());
            renew.setString(2, machine);
            renew.setString(3, machine);
            renew.setString(4, machine);
            try (ResultSet row = renew.executeQuery()) {
                if (!row.next()) {
                    return new Renewed(Renewal.MISSING, -1, null);
                }
                return new Renewed(row.getBoolean(1) ? Renewal.LAPSED : Renewal.RENEWED, row.getLong(2),
                        row.getTimestamp(3).toInstant());
            }
        }
    }

    /** A claim's answer: granted with its fencing number, held by another live machine, or lost to a claim racing it. */
    sealed interface Claim permits Granted, Held, Raced {
    }

    /** @param previous the last change another machine's holder left, null when there is none to check */
    record Granted(long fence, LastChange previous) implements Claim {
    }

    record Held(RemoteHold hold) implements Claim {
    }

    record Raced() implements Claim {
    }

    /**
     * Claims one file for a session of this machine: a free file, one this machine already holds (the local table
     * decides among its own sessions), or one whose machine's lease ran out. Records the session, the event and the
     * notification in the same statement.
     */
    static Claim claim(Connection connection, String machine, ClaimingSession session, SharedPath file) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement("""
                WITH session_row AS (
                  INSERT INTO baton_team_sessions AS known (machine, session, agent, name, plan, pid, cwd, seen_at, started_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, now(), ?)
                  ON CONFLICT (machine, session) DO UPDATE SET agent = EXCLUDED.agent, name = EXCLUDED.name,
                    plan = EXCLUDED.plan, pid = EXCLUDED.pid, cwd = EXCLUDED.cwd, seen_at = EXCLUDED.seen_at,
                    started_at = coalesce(known.started_at, EXCLUDED.started_at)),
                claimed AS (
                  INSERT INTO baton_team_claims AS held (repository, path, machine, session, fence, since)
                  VALUES (?, ?, ?, ?, nextval('baton_team_fences'), now())
                  ON CONFLICT (repository, path) DO UPDATE SET machine = EXCLUDED.machine, session = EXCLUDED.session,
                    fence = EXCLUDED.fence, since = EXCLUDED.since
                  WHERE held.machine = EXCLUDED.machine OR NOT EXISTS (SELECT 1 FROM baton_team_machines m
                    WHERE m.machine = held.machine AND m.lease_until > now())
                  RETURNING fence),
                numbered AS (
                  UPDATE baton_team_event_counter SET seq = seq + 1 WHERE EXISTS (SELECT 1 FROM claimed)
                  RETURNING seq, pg_notify('baton_team', seq::text)),
                logged AS (
                  INSERT INTO baton_team_events (seq, at, machine, kind, repository, path, session, fence)
                  SELECT numbered.seq, now(), ?, 'claim', ?, ?, ?, claimed.fence FROM numbered, claimed)
                SELECT claimed.fence, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  f.last_commit, f.branch, f.machine, f.session, f.pushed, f.uncommitted
                FROM claimed LEFT JOIN baton_team_files f ON f.repository = ? AND f.path = ? AND f.machine <> ?
                UNION ALL
                SELECT NULL, held.machine, m.host, held.session, s.agent, s.name, s.plan, s.pid, held.since, held.fence,
                  m.lease_until > now(), NULL, NULL, NULL, NULL, NULL, NULL
                FROM baton_team_claims held
                LEFT JOIN baton_team_sessions s ON s.machine = held.machine AND s.session = held.session
                LEFT JOIN baton_team_machines m ON m.machine = held.machine
                WHERE held.repository = ? AND held.path = ? AND NOT EXISTS (SELECT 1 FROM claimed)""")) {
            int i = 0;
            claim.setString(++i, machine);
            claim.setString(++i, session.id());
            claim.setString(++i, session.agent());
            claim.setString(++i, session.name());
            claim.setString(++i, session.plan());
            claim.setObject(++i, session.pid());
            claim.setString(++i, session.cwd());
            claim.setTimestamp(++i, session.startedAt() == null ? null : Timestamp.from(session.startedAt()));
            claim.setString(++i, file.repository());
            claim.setString(++i, file.path());
            claim.setString(++i, machine);
            claim.setString(++i, session.id());
            claim.setString(++i, machine);
            claim.setString(++i, file.repository());
            claim.setString(++i, file.path());
            claim.setString(++i, session.id());
            claim.setString(++i, file.repository());
            claim.setString(++i, file.path());
            claim.setString(++i, machine);
            claim.setString(++i, file.repository());
            claim.setString(++i, file.path());
            try (ResultSet row = claim.executeQuery()) {
                if (!row.next()) {
                    return new Raced(); // a claim that committed after this statement began took it: ask again
                }
                if (row.getObject(1) != null) {
                    LastChange previous = row.getString(12) == null ? null
                            : new LastChange(row.getString(12), row.getString(13), row.getString(14), row.getString(15),
                            (Boolean) row.getObject(16), (Boolean) row.getObject(17));
                    return new Granted(row.getLong(1), previous);
                }
                return new Held(hold(file, row, 2));
            }
        }
    }

    private static RemoteHold hold(SharedPath file, ResultSet row, int first) throws SQLException {
        Timestamp since = row.getTimestamp(first + 7);
        Object pid = row.getObject(first + 6);
        return new RemoteHold(file, row.getString(first), row.getString(first + 1), row.getString(first + 2),
                row.getString(first + 3), row.getString(first + 4), row.getString(first + 5),
                pid == null ? null : ((Number) pid).longValue(), since == null ? null : since.toInstant(),
                row.getLong(first + 8), row.getBoolean(first + 9));
    }

    /** Gives a file back, only if this machine still holds it under this fencing number (a later claim stays). */
    static boolean release(Connection connection, String machine, SharedPath file, long fence, LastChange last)
            throws SQLException {
        try (PreparedStatement release = connection.prepareStatement("""
                WITH gone AS (
                  DELETE FROM baton_team_claims WHERE repository = ? AND path = ? AND machine = ? AND fence = ?
                  RETURNING session, fence),
                recorded AS (
                  INSERT INTO baton_team_files (repository, path, last_commit, branch, machine, session, at, pushed,
                    uncommitted)
                  SELECT ?, ?, ?::text, ?, ?, gone.session, now(), ?::boolean, ?::boolean FROM gone
                  WHERE ?::text IS NOT NULL
                  ON CONFLICT (repository, path) DO UPDATE SET last_commit = EXCLUDED.last_commit,
                    branch = EXCLUDED.branch, machine = EXCLUDED.machine, session = EXCLUDED.session, at = EXCLUDED.at,
                    pushed = EXCLUDED.pushed, uncommitted = EXCLUDED.uncommitted),
                numbered AS (
                  UPDATE baton_team_event_counter SET seq = seq + 1 WHERE EXISTS (SELECT 1 FROM gone)
                  RETURNING seq, pg_notify('baton_team', seq::text))
                INSERT INTO baton_team_events (seq, at, machine, kind, repository, path, session, fence)
                SELECT numbered.seq, now(), ?, 'release', ?, ?, gone.session, gone.fence FROM numbered, gone""")) {
            release.setString(1, file.repository());
            release.setString(2, file.path());
            release.setString(3, machine);
            release.setLong(4, fence);
            release.setString(5, file.repository());
            release.setString(6, file.path());
            release.setString(7, last == null ? null : last.commit());
            release.setString(8, last == null ? null : last.branch());
            release.setString(9, machine);
            release.setObject(10, last == null ? null : last.pushed(), java.sql.Types.BOOLEAN);
            release.setObject(11, last == null ? null : last.uncommitted(), java.sql.Types.BOOLEAN);
            release.setString(12, last == null ? null : last.commit());
            release.setString(13, machine);
            release.setString(14, file.repository());
            release.setString(15, file.path());
            return release.executeUpdate() > 0;
        }
    }

    /** Records that a file was taken on two machines while this one could not reach the database. */
    /** @param cause how this machine's session came to hold the file too, as the other side reads it */
    static void conflict(Connection connection, String machine, String session, SharedPath file, RemoteHold other,
                         String cause) throws SQLException {
        try (PreparedStatement conflict = connection.prepareStatement("""
                WITH numbered AS (
                  UPDATE baton_team_event_counter SET seq = seq + 1 RETURNING seq, pg_notify('baton_team', seq::text))
                INSERT INTO baton_team_events (seq, at, machine, kind, repository, path, session, fence, detail, body)
                SELECT numbered.seq, now(), ?, 'conflict', ?, ?, ?, ?, ?, ? FROM numbered""")) {
            conflict.setString(1, machine);
            conflict.setString(2, file.repository());
            conflict.setString(3, file.path());
            conflict.setString(4, session);
            conflict.setLong(5, other.fence());
            conflict.setString(6, SessionAddress.of(other.machine(), other.session()));
            conflict.setString(7, cause);
            conflict.executeUpdate();
        }
    }

    static List<TeamEvent> eventsAfter(Connection connection, long seq, int limit) throws SQLException {
        try (PreparedStatement events = connection.prepareStatement("""
                SELECT seq, at, machine, kind, repository, path, session, fence, detail, body,
                  coalesce(agent, CASE WHEN kind = 'message' THEN path END) FROM baton_team_events
                WHERE seq > ? ORDER BY seq LIMIT ?""")) {
            events.setLong(1, seq);
            events.setInt(2, limit);
            List<TeamEvent> found = new ArrayList<>();
            try (ResultSet row = events.executeQuery()) {
                while (row.next()) {
                    Object fence = row.getObject(8);
                    found.add(new TeamEvent(row.getLong(1), row.getTimestamp(2).toInstant(), row.getString(3),
                            row.getString(4), new SharedPath(row.getString(5), row.getString(6)), row.getString(7),
                            fence == null ? null : ((Number) fence).longValue(), row.getString(9), row.getString(10),
                            row.getString(11)));
                }
            }
            return found;
        }
    }

    /**
     * Forgets what no sidecar needs any more, in one statement: events older than {@code keep}, and the sessions and
     * machines last seen longer ago than that which hold no file. Returns how many rows went.
     */
    static long prune(Connection connection, Duration keep) throws SQLException {
        try (PreparedStatement prune = connection.prepareStatement("""
                WITH events AS (
                  DELETE FROM baton_team_events WHERE at < now() - ? * interval '1 millisecond' RETURNING 1),
                sessions AS (
                  DELETE FROM baton_team_sessions s WHERE s.seen_at < now() - ? * interval '1 millisecond'
                    AND NOT EXISTS (SELECT 1 FROM baton_team_claims c WHERE c.machine = s.machine AND c.session = s.session)
                  RETURNING 1),
                machines AS (
                  DELETE FROM baton_team_machines m WHERE m.lease_until < now() - ? * interval '1 millisecond'
                    AND NOT EXISTS (SELECT 1 FROM baton_team_claims c WHERE c.machine = m.machine) RETURNING 1),
                waits AS (
                  DELETE FROM baton_team_waits w WHERE NOT EXISTS (SELECT 1 FROM baton_team_machines m
                    WHERE m.machine = w.machine AND m.lease_until >= now() - ? * interval '1 millisecond') RETURNING 1)
                SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM sessions) + (SELECT count(*) FROM machines)
                  + (SELECT count(*) FROM waits)""")) {
            for (int i = 1; i <= 4; i++) {
                prune.setLong(i, keep.toMillis());
            }
            try (ResultSet row = prune.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    /** Whether events after {@code seq} were pruned before they were read: the oldest kept one comes later. */
    static boolean eventsLostAfter(Connection connection, long seq) throws SQLException {
        try (PreparedStatement oldest = connection.prepareStatement("""
                SELECT coalesce((SELECT min(seq) FROM baton_team_events), (SELECT seq + 1 FROM baton_team_event_counter)) > ? + 1""")) {
            oldest.setLong(1, seq);
            try (ResultSet row = oldest.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        }
    }

    static long newestEvent(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT seq FROM baton_team_event_counter")) {
            return row.next() ? row.getLong(1) : 0;
        }
    }

    /** Every file held by a machine other than {@code machine}, with its holder. */
    static List<RemoteHold> heldByOthers(Connection connection, String machine) throws SQLException {
        return holds(connection, "held.machine <> ?", machine);
    }

    /** Every file held in the team, by any machine. */
    static List<RemoteHold> everyHold(Connection connection) throws SQLException {
        return holds(connection, "true", null);
    }

    /** Every file {@code machine} holds. */
    static List<RemoteHold> heldBy(Connection connection, String machine) throws SQLException {
        return holds(connection, "held.machine = ?", machine);
    }

    /** @param machine the value of the condition's one parameter, null for a condition without one */
    private static List<RemoteHold> holds(Connection connection, String condition, String machine) throws SQLException {
        try (PreparedStatement holds = connection.prepareStatement("""
                SELECT held.repository, held.path, held.machine, m.host, held.session, s.agent, s.name, s.plan, s.pid,
                  held.since, held.fence, m.lease_until > now()
                FROM baton_team_claims held
                LEFT JOIN baton_team_sessions s ON s.machine = held.machine AND s.session = held.session
                LEFT JOIN baton_team_machines m ON m.machine = held.machine""" + " WHERE " + condition
                + " ORDER BY held.repository, held.path")) {
            if (machine != null) {
                holds.setString(1, machine);
            }
            List<RemoteHold> found = new ArrayList<>();
            try (ResultSet row = holds.executeQuery()) {
                while (row.next()) {
                    found.add(hold(new SharedPath(row.getString(1), row.getString(2)), row, 3));
                }
            }
            return found;
        }
    }

    static List<TeamMachine> machines(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("""
                     SELECT m.machine, m.host, m.lease_until, m.lease_until > now(), m.renewed_at,
                       (SELECT count(*) FROM baton_team_sessions s WHERE s.machine = m.machine
                          AND EXISTS (SELECT 1 FROM baton_team_claims c WHERE c.machine = s.machine AND c.session = s.session)),
                       (SELECT count(*) FROM baton_team_claims c WHERE c.machine = m.machine)
                     FROM baton_team_machines m ORDER BY m.machine""")) {
            List<TeamMachine> machines = new ArrayList<>();
            while (row.next()) {
                machines.add(new TeamMachine(row.getString(1), row.getString(2), row.getTimestamp(3).toInstant(),
                        row.getBoolean(4), row.getTimestamp(5).toInstant(), row.getInt(6), row.getInt(7)));
            }
            return machines;
        }
    }

    static List<TeamSession> sessions(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("""
                     SELECT c.machine, c.session, s.agent, s.name, s.plan, count(*)
                     FROM baton_team_claims c
                     LEFT JOIN baton_team_sessions s ON s.machine = c.machine AND s.session = c.session
                     GROUP BY c.machine, c.session, s.agent, s.name, s.plan ORDER BY c.machine, c.session""")) {
            List<TeamSession> sessions = new ArrayList<>();
            while (row.next()) {
                sessions.add(new TeamSession(row.getString(1), row.getString(2), row.getString(3), row.getString(4),
                        row.getString(5), row.getInt(6)));
            }
            return sessions;
        }
    }

    /**
     * Records the root commit of a repository the first time a machine names it, and returns the one recorded (by
     * this machine now, or by whichever came first) with the machine that recorded it.
     */
    static String[] rootCommitOf(Connection connection, String repository, String rootCommit, String machine)
            throws SQLException {
        try (PreparedStatement root = connection.prepareStatement("""
                WITH first AS (
                  INSERT INTO baton_team_repositories (repository, root_commit, machine, at) VALUES (?, ?, ?, now())
                  ON CONFLICT (repository) DO NOTHING RETURNING root_commit, machine)
                SELECT root_commit, machine FROM first
                UNION ALL
                SELECT root_commit, machine FROM baton_team_repositories WHERE repository = ?
                  AND NOT EXISTS (SELECT 1 FROM first)""")) {
            root.setString(1, repository);
            root.setString(2, rootCommit);
            root.setString(3, machine);
            root.setString(4, repository);
            try (ResultSet row = root.executeQuery()) {
                return row.next() ? new String[] {row.getString(1), row.getString(2)} : null;
            }
        }
    }

    /** A claim of another machine on another branch of the same repository: its machine, session and branch. */
    record OtherBranch(String machine, String session, String branch) {
    }

    /**
     * The claims of live machines other than {@code machine} of {@code path} on other branches of the repository (a
     * team keyed by branch names a repository {@code ID#BRANCH}): changes on two branches that will meet at a merge.
     */
    static List<OtherBranch> otherBranches(Connection connection, String repositoryOnBranch, String path, String machine)
            throws SQLException {
        String repository = repositoryOnBranch.substring(0, repositoryOnBranch.lastIndexOf('#'));
        String pattern = repository.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "#%";
        try (PreparedStatement find = connection.prepareStatement("""
                SELECT c.machine, c.session, c.repository FROM baton_team_claims c
                  JOIN baton_team_machines m ON m.machine = c.machine AND m.lease_until > now()
                WHERE c.path = ? AND c.repository LIKE ? AND c.repository <> ? AND c.machine <> ?
                ORDER BY c.machine, c.session""")) {
            find.setString(1, path);
            find.setString(2, pattern);
            find.setString(3, repositoryOnBranch);
            find.setString(4, machine);
            List<OtherBranch> found = new ArrayList<>();
            try (ResultSet row = find.executeQuery()) {
                while (row.next()) {
                    found.add(new OtherBranch(row.getString(1), row.getString(2),
                            row.getString(3).substring(repository.length() + 1)));
                }
            }
            return found;
        }
    }

    /**
     * The session of another machine that {@code to} names (its id, or the unique start of one among the sessions other
     * machines have claimed files for), as {@code MACHINE/ID}; null when none or several.
     */
    static String remoteSession(Connection connection, String machine, String to) throws SQLException {
        try (PreparedStatement find = connection.prepareStatement("""
                SELECT machine, session FROM baton_team_sessions
                WHERE machine <> ? AND (session = ? OR starts_with(session, ?)) ORDER BY session = ? DESC LIMIT 2""")) {
            find.setString(1, machine);
            find.setString(2, to);
            find.setString(3, to);
            find.setString(4, to);
            try (ResultSet row = find.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
                String found = SessionAddress.of(row.getString(1), row.getString(2));
                boolean exact = row.getString(2).equals(to);
                return exact || !row.next() ? found : null;
            }
        }
    }

    /** A message from a session of this machine to one of another ({@code recipient} is MACHINE/ID), as an event. */
    static void message(Connection connection, String machine, String sender, String senderAgent, String recipient,
                        String text) throws SQLException {
        try (PreparedStatement message = connection.prepareStatement("""
                WITH numbered AS (
                  UPDATE baton_team_event_counter SET seq = seq + 1 RETURNING seq, pg_notify('baton_team', seq::text))
                INSERT INTO baton_team_events (seq, at, machine, kind, session, detail, body, agent)
                SELECT numbered.seq, now(), ?, 'message', ?, ?, ?, ? FROM numbered""")) {
            message.setString(1, machine);
            message.setString(2, sender);
            message.setString(3, recipient);
            message.setString(4, text);
            message.setString(5, senderAgent);
            message.executeUpdate();
        }
    }

    /**
     * A step of a negotiation between a session of this machine and one of another ({@code recipient} is MACHINE/ID),
     * as an event; {@code body} is its {@link NegotiationStep}, {@code file} the file it is about (null: named by id).
     */
    static void negotiation(Connection connection, String machine, String sender, String recipient, SharedPath file,
                            String body) throws SQLException {
        try (PreparedStatement step = connection.prepareStatement("""
                WITH numbered AS (
                  UPDATE baton_team_event_counter SET seq = seq + 1 RETURNING seq, pg_notify('baton_team', seq::text))
                INSERT INTO baton_team_events (seq, at, machine, kind, session, detail, body, repository, path)
                SELECT numbered.seq, now(), ?, 'negotiation', ?, ?, ?, ?, ? FROM numbered""")) {
            step.setString(1, machine);
            step.setString(2, sender);
            step.setString(3, recipient);
            step.setString(4, body);
            step.setString(5, file == null ? null : file.repository());
            step.setString(6, file == null ? null : file.path());
            step.executeUpdate();
        }
    }

    /** A session of this machine renamed itself or published a new plan: other machines name it so from now on. */
    static void describe(Connection connection, String machine, ClaimingSession session) throws SQLException {
        try (PreparedStatement describe = connection.prepareStatement("""
                UPDATE baton_team_sessions SET name = ?, plan = ?, seen_at = now() WHERE machine = ? AND session = ?""")) {
            describe.setString(1, session.name());
            describe.setString(2, session.plan());
            describe.setString(3, machine);
            describe.setString(4, session.id());
            describe.executeUpdate();
        }
    }

    /** The notification that a machine's waits changed: the others read the team's wait-for edges again. */
    static final String WAITS_CHANGED = "waits";

    /**
     * Makes {@code waits} this machine's waits in the team, in one statement: rows no longer waited for go, new ones
     * come, and the other machines are told.
     */
    static void shareWaits(Connection connection, String machine, Collection<SharedWait> waits) throws SQLException {
        try (PreparedStatement share = connection.prepareStatement("""
                WITH wanted AS (
                  SELECT * FROM unnest(?::text[], ?::text[], ?::text[]) AS x (session, repository, path)),
                gone AS (
                  DELETE FROM baton_team_waits w WHERE w.machine = ? AND NOT EXISTS (SELECT 1 FROM wanted x
                    WHERE x.session = w.session AND x.repository = w.repository AND x.path = w.path)),
                added AS (
                  INSERT INTO baton_team_waits (machine, session, repository, path)
                  SELECT ?, session, repository, path FROM wanted ON CONFLICT DO NOTHING)
                SELECT pg_notify(?, ?)""")) {
            share.setArray(1, connection.createArrayOf("text", waits.stream().map(SharedWait::session).toArray()));
            share.setArray(2, connection.createArrayOf("text", waits.stream().map(w -> w.file().repository()).toArray()));
            share.setArray(3, connection.createArrayOf("text", waits.stream().map(w -> w.file().path()).toArray()));
            share.setString(4, machine);
            share.setString(5, machine);
            share.setString(6, CHANNEL);
            share.setString(7, WAITS_CHANGED);
            share.executeQuery().close();
        }
    }

    /** A session of this machine waiting for a file of a shared repository (a subagent is named by its family). */
    record SharedWait(String session, SharedPath file) {
    }

    /**
     * Every wait of a machine whose lease holds, each with the session that holds its file when that is a session of a
     * live machine other than the waiter: the team's wait-for graph, in one statement.
     */
    static List<TeamWait> waits(Connection connection) throws SQLException {
        try (PreparedStatement waits = connection.prepareStatement("""
                SELECT w.machine, w.session, ws.agent, ws.name, ws.started_at,
                  c.machine, c.session, hs.agent, hs.name, hs.started_at, w.repository, w.path
                FROM baton_team_waits w
                JOIN baton_team_machines wm ON wm.machine = w.machine AND wm.lease_until > now()
                LEFT JOIN baton_team_claims c ON c.repository = w.repository AND c.path = w.path
                  AND NOT (c.machine = w.machine AND c.session = w.session)
                  AND EXISTS (SELECT 1 FROM baton_team_machines hm WHERE hm.machine = c.machine AND hm.lease_until > now())
                LEFT JOIN baton_team_sessions ws ON ws.machine = w.machine AND ws.session = w.session
                LEFT JOIN baton_team_sessions hs ON hs.machine = c.machine AND hs.session = c.session
                ORDER BY w.machine, w.session, w.repository, w.path""")) {
            List<TeamWait> found = new ArrayList<>();
            try (ResultSet row = waits.executeQuery()) {
                while (row.next()) {
                    found.add(new TeamWait(member(row, 1), row.getString(6) == null ? null : member(row, 6),
                            new SharedPath(row.getString(11), row.getString(12))));
                }
            }
            return found;
        }
    }

    private static TeamWaits.Member member(ResultSet row, int first) throws SQLException {
        Timestamp started = row.getTimestamp(first + 4);
        return new TeamWaits.Member(row.getString(first), row.getString(first + 1), row.getString(first + 2),
                row.getString(first + 3), started == null ? null : started.toInstant());
    }

    /** A wait of the team, and the session whose claim it waits on (null when no other session holds its file). */
    record TeamWait(TeamWaits.Member waiter, TeamWaits.Member holder, SharedPath file) {
    }
}
