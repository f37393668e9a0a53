package dev.baton.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
            ) WITHOUT ROWID;
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
            // 2: coordination. A negotiation row is upserted on every step, a receipt row per recipient
            // and message records delivery and reading (broadcasts included).
            """
            CREATE TABLE negotiations (
                id TEXT PRIMARY KEY,
                file TEXT NOT NULL,
                requester_id TEXT NOT NULL,
                holder_id TEXT NOT NULL,
                reason TEXT NOT NULL,
                urgency TEXT NOT NULL,
                state TEXT NOT NULL,
                created_ms INTEGER NOT NULL,
                timeout_ms INTEGER NOT NULL,
                answered_ms INTEGER,
                eta_minutes INTEGER,
                answer_reason TEXT,
                resolved_ms INTEGER,
                resolution TEXT,
                holder_notified INTEGER NOT NULL DEFAULT 0,
                requester_notified TEXT
            );
            CREATE INDEX negotiations_by_file ON negotiations(file);
            CREATE TABLE messages (
                id INTEGER PRIMARY KEY,
                sender_id TEXT NOT NULL,
                recipient TEXT NOT NULL,
                body TEXT NOT NULL,
                sent_ms INTEGER NOT NULL
            );
            CREATE TABLE message_receipts (
                message_id INTEGER NOT NULL,
                session_id TEXT NOT NULL,
                delivered_ms INTEGER,
                read_ms INTEGER,
                PRIMARY KEY (message_id, session_id)
            );
            """,
            // 3: the change stream, one row per event, so a client reconnecting with `since` misses nothing.
            """
            CREATE TABLE events (
                seq INTEGER PRIMARY KEY,
                at_ms INTEGER NOT NULL,
                kind TEXT NOT NULL,
                data TEXT NOT NULL
            );
            """,
            // 4: audit ids without AUTOINCREMENT, which wrote a sqlite_sequence row (one more page) in every
            // commit. Pruning the audit keeps its newest row, so a new id is still above every id ever handed out.
            """
            CREATE TABLE audit_v4 (
                id INTEGER PRIMARY KEY,
                at_ms INTEGER NOT NULL,
                action TEXT NOT NULL,
                session_id TEXT,
                file TEXT,
                reason TEXT,
                actor TEXT
            );
            INSERT INTO audit_v4 (id, at_ms, action, session_id, file, reason, actor)
                SELECT id, at_ms, action, session_id, file, reason, actor FROM audit;
            DROP TABLE audit;
            ALTER TABLE audit_v4 RENAME TO audit;
            CREATE INDEX audit_by_file ON audit(file, id);
            """,
            // 5: ended main sessions, so that an ended id is taken up again only by its agent or a resume of it.
            """
            CREATE TABLE IF NOT EXISTS ended_sessions (
                id TEXT PRIMARY KEY,
                agent TEXT NOT NULL,
                pid INTEGER,
                pid_start_ms INTEGER,
                key_hash TEXT,
                last_heard_ms INTEGER NOT NULL,
                ended_ms INTEGER NOT NULL
            );
            """,
            // 6: negotiations across the machines of a team: the remote party's machine (null: this machine) and agent.
            """
            ALTER TABLE negotiations ADD COLUMN requester_machine TEXT;
            ALTER TABLE negotiations ADD COLUMN holder_machine TEXT;
            ALTER TABLE negotiations ADD COLUMN remote_agent TEXT;
            """,
            // 7: each held file's last kept version, which its holder can put back (the content is in versions/).
            """
            CREATE TABLE IF NOT EXISTS kept_versions (
                file TEXT PRIMARY KEY,
                session_id TEXT NOT NULL,
                hash TEXT,
                size INTEGER NOT NULL,
                mode INTEGER NOT NULL,
                kept_ms INTEGER NOT NULL,
                changed_by TEXT,
                changed_ms INTEGER
            ) WITHOUT ROWID;
            """);

    /** SQLite has no ADD COLUMN IF NOT EXISTS: a column a database has already is not added again. */
    private static final Pattern ADD_COLUMN =
            Pattern.compile("ALTER TABLE (\\w+) ADD COLUMN (\\w+) .*", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);

    private Migrations() {
    }

    static int latest() {
        return SCRIPTS.size();
    }

    private static boolean hasColumnAlready(Statement statement, String sql) throws SQLException {
        Matcher add = ADD_COLUMN.matcher(sql);
        if (!add.matches()) {
            return false;
        }
        try (ResultSet columns = statement.executeQuery("PRAGMA table_info(" + add.group(1) + ")")) {
            while (columns.next()) {
                if (columns.getString("name").equalsIgnoreCase(add.group(2))) {
                    return true;
                }
            }
        }
        return false;
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
                statement.execute("BEGIN IMMEDIATE");
                try {
                    for (String sql : SCRIPTS.get(version - 1).split(";")) {
                        if (!sql.isBlank() && !hasColumnAlready(statement, sql.strip())) {
                            statement.execute(sql);
                        }
                    }
                    statement.execute("PRAGMA user_version = " + version);
                    statement.execute("COMMIT");
                } catch (SQLException e) {
                    statement.execute("ROLLBACK");
                    throw e;
                }
            }
        }
    }
}
