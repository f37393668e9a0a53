package dev.baton.home;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * What the database says about the sidecars that used it: that one is running (set at start and checkpointed into
 * the database file, so it is there whatever becomes of the log), and how many sessions and locks the last one held
 * when it stopped cleanly. Written at start and at a clean stop only, never on a commit. {@link StateCheck} reads it
 * before the next start.
 */
public final class StateRecord {

    private static final String TABLE = "sidecar_runs";

    /** The record as it stands: {@code running} means the last sidecar did not reach a clean stop. */
    record Recorded(long runs, boolean running, long sessions, long locks, long namedLocks) {
    }

    private StateRecord() {
    }

    /**
     * Marks the database as in use by a running sidecar and checkpoints, so the mark is in the database file itself
     * and the log starts empty. Called once the schema is in place.
     */
    public static void started(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id INTEGER PRIMARY KEY CHECK (id = 1),"
                    + " runs INTEGER NOT NULL, running INTEGER NOT NULL, stopped_ms INTEGER,"
                    + " sessions INTEGER NOT NULL DEFAULT 0, locks INTEGER NOT NULL DEFAULT 0,"
                    + " named_locks INTEGER NOT NULL DEFAULT 0)");
            statement.execute("INSERT INTO " + TABLE + " (id, runs, running) VALUES (1, 1, 1)"
                    + " ON CONFLICT (id) DO UPDATE SET runs = runs + 1, running = 1");
            checkpoint(statement);
        }
    }

    /** Records a clean stop with what the database holds now; the last thing written before the connection closes. */
    public static void stopped(Connection connection, long atMillis) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("UPDATE " + TABLE + " SET running = 0, stopped_ms = " + atMillis
                    + ", sessions = (SELECT count(*) FROM sessions), locks = (SELECT count(*) FROM locks),"
                    + " named_locks = (SELECT count(*) FROM named_locks) WHERE id = 1");
            checkpoint(statement);
        }
    }

    private static void checkpoint(Statement statement) throws SQLException {
        try (ResultSet ignored = statement.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            // the answer (busy, log frames, checkpointed frames) changes nothing here
        }
    }

    /** The record in a database opened read-only; empty when it has none (made by an older Baton, or never started). */
    static Optional<Recorded> read(Connection connection) throws SQLException {
        if (!hasTable(connection, TABLE)) {
            return Optional.empty();
        }
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT runs, running, sessions, locks, named_locks FROM " + TABLE
                     + " WHERE id = 1")) {
            return rs.next() ? Optional.of(new Recorded(rs.getLong(1), rs.getInt(2) != 0, rs.getLong(3), rs.getLong(4),
                    rs.getLong(5))) : Optional.empty();
        }
    }

    static boolean hasTable(Connection connection, String name) throws SQLException {
        try (var query = connection.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }
}
