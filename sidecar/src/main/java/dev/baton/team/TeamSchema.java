package dev.baton.team;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The tables team mode keeps in the shared database, made on first use by whichever sidecar comes first. Their rows
 * are read and written only by {@link TeamDatabase}.
 */
final class TeamSchema {

    /** Serialises schema creation among sidecars that start at once; any number that no other program uses. */
    private static final long SCHEMA_LOCK = 0x6261746f6e01L;
    /** Raised whenever a statement below changes: a database at this version is not altered again. */
    static final int VERSION = 3;

    private TeamSchema() {
    }

    static void create(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            if (version(statement) >= VERSION) {
                // Made already: no statement here runs again. Even an "IF NOT EXISTS" ALTER locks its table against
                // every reader and writer, and deadlocked with the claims of a machine already in the team.
                connection.commit();
                return;
            }
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_machines (
                      machine text PRIMARY KEY, host text NOT NULL, lease_until timestamptz NOT NULL,
                      renewed_at timestamptz NOT NULL, joined_at timestamptz NOT NULL)""");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_sessions (
                      machine text NOT NULL, session text NOT NULL, agent text, name text, plan text, pid bigint, cwd text,
                      seen_at timestamptz NOT NULL, PRIMARY KEY (machine, session))""");
            // The start each machine recorded for its session: every machine chooses the same victim of a deadlock by it.
            statement.execute("ALTER TABLE baton_team_sessions ADD COLUMN IF NOT EXISTS started_at timestamptz");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_claims (
                      repository text NOT NULL, path text NOT NULL, machine text NOT NULL, session text NOT NULL,
                      fence bigint NOT NULL, since timestamptz NOT NULL, PRIMARY KEY (repository, path))""");
            statement.execute("CREATE INDEX IF NOT EXISTS baton_team_claims_by_machine ON baton_team_claims (machine)");
            statement.execute("CREATE SEQUENCE IF NOT EXISTS baton_team_fences");
            // Each machine's waits for files of shared repositories (waiting acquires, negotiations, denied edits): with
            // the claims, the team's wait-for graph.
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_waits (
                      machine text NOT NULL, session text NOT NULL, repository text NOT NULL, path text NOT NULL,
                      PRIMARY KEY (machine, session, repository, path))""");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_repositories (
                      repository text PRIMARY KEY, root_commit text NOT NULL, machine text NOT NULL,
                      at timestamptz NOT NULL)""");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_files (
                      repository text NOT NULL, path text NOT NULL, last_commit text NOT NULL, branch text,
                      machine text NOT NULL, session text NOT NULL, at timestamptz NOT NULL,
                      PRIMARY KEY (repository, path))""");
            // Whether the last change had reached a remote of its clone: the advice is "pull" or "have it pushed".
            statement.execute("ALTER TABLE baton_team_files ADD COLUMN IF NOT EXISTS pushed boolean");
            // Whether its clone still had changes of it that no commit has: the next holder anywhere is told.
            statement.execute("ALTER TABLE baton_team_files ADD COLUMN IF NOT EXISTS uncommitted boolean");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_events (
                      seq bigint PRIMARY KEY, at timestamptz NOT NULL, machine text NOT NULL, kind text NOT NULL,
                      repository text, path text, session text, fence bigint, detail text, body text)""");
            statement.execute("ALTER TABLE baton_team_events ADD COLUMN IF NOT EXISTS agent text");
            // Event numbers come from one row updated in the writing statement: its row lock orders the commits, so a
            // reader that has seen number N has seen every number below it (a sequence would let a later number commit first).
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_event_counter (
                      only_row boolean PRIMARY KEY CHECK (only_row), seq bigint NOT NULL)""");
            statement.execute("INSERT INTO baton_team_event_counter VALUES (true, 0) ON CONFLICT DO NOTHING");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS baton_team_schema (
                      only_row boolean PRIMARY KEY CHECK (only_row), version integer NOT NULL)""");
            statement.execute("INSERT INTO baton_team_schema VALUES (true, " + VERSION + ") ON CONFLICT (only_row)"
                    + " DO UPDATE SET version = EXCLUDED.version");
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** The version the database's tables were made at; 0 before any (or before versions were recorded). */
    private static int version(Statement statement) throws SQLException {
        try (ResultSet made = statement.executeQuery("SELECT to_regclass('baton_team_schema') IS NOT NULL")) {
            made.next();
            if (!made.getBoolean(1)) {
                return 0;
            }
        }
        try (ResultSet row = statement.executeQuery("SELECT version FROM baton_team_schema")) {
            return row.next() ? row.getInt(1) : 0;
        }
    }

}
