package dev.baton.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** The schema, one script per version; {@code PRAGMA user_version} records how far a database is. */
final class Migrations {

    private static final List<String> SCRIPTS = List.of(
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                agent TEXT NOT NULL,
                pid INTEGER,
                pid_start_ms INTEGER,
                host TEXT,
                cwd TEXT,
                repo_root TEXT,
                started_ms INTEGER NOT NULL,
                heartbeat_ms INTEGER NOT NULL,
                name TEXT,
                parent_id TEXT,
                key_hash TEXT,
                plan_goal TEXT,
                plan_task TEXT,
                plan_ms INTEGER
            );
            CREATE TABLE locks (
                file TEXT PRIMARY KEY,
                session_id TEXT NOT NULL,
                acquired_ms INTEGER NOT NULL,
                last_edit_ms INTEGER,
                edit_in_flight INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX locks_by_session ON locks(session_id);
            CREATE TABLE named_locks (
                name TEXT PRIMARY KEY,
                pid INTEGER NOT NULL,
                pid_start_ms INTEGER,
                host TEXT,
                acquired_ms INTEGER NOT NULL,
                purpose TEXT
            );
            CREATE TABLE audit (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at_ms INTEGER NOT NULL,
                action TEXT NOT NULL,
                session_id TEXT,
                file TEXT,
                reason TEXT,
                actor TEXT
            );
            CREATE INDEX audit_by_file ON audit(file, id);
            """,
            // The change stream. IF NOT EXISTS keeps this script correct in whichever position it lands
            // among the scripts of parallel work (it may run as version 2 or 3).
            """
            CREATE TABLE IF NOT EXISTS events (
                seq INTEGER PRIMARY KEY,
                at_ms INTEGER NOT NULL,
                kind TEXT NOT NULL,
                data TEXT NOT NULL
            );
            """);

    private Migrations() {
    }

    static int latest() {
        return SCRIPTS.size();
    }

    static void apply(Connection connection) throws SQLException {
        int current;
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("PRAGMA user_version")) {
            current = rs.next() ? rs.getInt(1) : 0;
        }
        if (current > SCRIPTS.size()) {
            throw new SQLException("the database has schema version " + current + " but this Baton knows only up to "
                    + SCRIPTS.size() + "; run a newer Baton or move the database aside");
        }
        for (int version = current + 1; version <= SCRIPTS.size(); version++) {
            try (Statement statement = connection.createStatement()) {
                for (String sql : SCRIPTS.get(version - 1).split(";")) {
                    if (!sql.isBlank()) {
                        statement.execute(sql);
                    }
                }
                statement.execute("PRAGMA user_version = " + version);
            }
            connection.commit();
        }
    }
}
