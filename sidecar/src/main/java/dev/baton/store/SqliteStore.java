package dev.baton.store;

import dev.baton.home.StateRecord;
import dev.baton.state.AuditEntry;
import dev.baton.state.Batch;
import dev.baton.state.EventRecord;
import dev.baton.state.RowKind;
import dev.baton.state.RowWrite;
import dev.baton.state.Store;
import dev.baton.state.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConnection;

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=NORMAL, written through a single
 * connection by the ledger's single writer. A commit survives a killed process once it returns.
 * Every use of the connection is synchronized: commits run outside the ledger's monitor (group
 * commit), so a read of the audit or event log could otherwise land inside a commit.
 */
public final class SqliteStore implements Store {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteStore.class);
    private static final int BUSY_TIMEOUT_MS = 5000;
    static final int WAL_AUTOCHECKPOINT_PAGES = 4000;
    /**
     * A commit writes every page it touched, whole, to the log: an acquire or a release changes a few dozen bytes on
     * each of three or four pages (lock row, audit row and its index entry, event row). At 1 KiB a page instead of
     * SQLite's default 4 KiB, the engine's commit took about a quarter less time (docs/PERFORMANCE.md).
     */
    static final int PAGE_SIZE = 1024;

    private final Path file;
    private final Connection connection;
    private final SqliteRows rows;
    private final PreparedStatement insertAudit;
    private final PreparedStatement insertEvent;
    private final PreparedStatement pruneEvents;
    /** Prepared once (preparing them for every commit was a tenth of its cost); null when they must be made anew. */
    private PreparedStatement begin;
    private PreparedStatement commit;

    public SqliteStore(Path file) {
        this.file = file;
        try {
            Properties properties = new Properties();
            properties.setProperty("journal_mode", "WAL");
            properties.setProperty("synchronous", "NORMAL");
            properties.setProperty("busy_timeout", String.valueOf(BUSY_TIMEOUT_MS));
            properties.setProperty("foreign_keys", "false");
            // No statement reads generated keys; the driver would otherwise query them after every insert.
            properties.setProperty("jdbc.get_generated_keys", "false");
            connection = DriverManager.getConnection("jdbc:sqlite:" + file, properties);
            // Transactions are begun and ended by hand: after SQLITE_FULL or SQLITE_IOERR, SQLite
            // rolls back by itself and the driver's own bookkeeping would no longer match it.
            connection.setAutoCommit(true);
            Migrations.apply(connection);
            usePageSize(connection);
            try (java.sql.Statement pragma = connection.createStatement()) {
                // A checkpoint copies the WAL's pages into the database and syncs both; at the default of 1,000
                // pages it ran every couple of hundred commits and rewrote the same few hot pages each time.
                // Commits stay as durable (they are in the WAL); the WAL file grows to about 4 MB between checkpoints.
                pragma.execute("PRAGMA wal_autocheckpoint = " + WAL_AUTOCHECKPOINT_PAGES);
                takeExclusiveLock(pragma);
            }
            // The driver, in auto-commit mode, follows every statement with a BEGIN of its own to learn whether a
            // transaction is open, and a COMMIT when none was: a tenth of a commit's time. Transactions here are
            // begun and ended by hand (above), so the driver is told it is not in auto-commit mode, without its own
            // BEGIN (which setAutoCommit(false) would run). Statements outside a transaction of ours are SQLite's
            // own implicit transactions, ended by SQLite when the statement ends, as before.
            connection.unwrap(SQLiteConnection.class).getConnectionConfig().setAutoCommit(false);
            StateRecord.started(connection);
            rows = new SqliteRows(connection);
            insertAudit = connection.prepareStatement("""
                    INSERT INTO audit (at_ms, action, session_id, file, reason, actor) VALUES (?, ?, ?, ?, ?, ?)""");
            insertEvent = connection.prepareStatement("INSERT INTO events (seq, at_ms, kind, data) VALUES (?, ?, ?, ?)");
            pruneEvents = connection.prepareStatement("DELETE FROM events WHERE seq <= ?");
        } catch (SQLException e) {
            throw new StoreException("cannot open the database " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Gives the database {@link #PAGE_SIZE} pages, new or made by an older Baton with bigger ones. SQLite changes the
     * page size only by rewriting the database outside WAL mode (VACUUM), so an older database is rewritten once, at
     * the first start that finds it so. If another process has it open, or the disk has no room for the copy, it
     * keeps its pages, which work as before, and the next start tries again.
     */
    private static void usePageSize(Connection connection) throws SQLException {
        try (java.sql.Statement statement = connection.createStatement()) {
            if (pragma(statement, "PRAGMA page_size").equals(String.valueOf(PAGE_SIZE))) {
                return;
            }
            try {
                if (!pragma(statement, "PRAGMA journal_mode = DELETE").equalsIgnoreCase("delete")) {
                    return;
                }
                statement.execute("PRAGMA page_size = " + PAGE_SIZE);
                statement.execute("VACUUM");
            } catch (SQLException keptAsItWas) {
                // VACUUM changes nothing unless it completes; the database keeps its page size.
            } finally {
                if (!pragma(statement, "PRAGMA journal_mode = WAL").equalsIgnoreCase("wal")) {
                    throw new SQLException("the database could not be put back in WAL mode after changing its page size");
                }
            }
        }
    }

    /**
     * Makes the sidecar the database's only user while it runs (one sidecar per home, held by sidecar.lock): SQLite's
     * lock is taken now and kept for as long as the connection is open, so no commit takes and drops the file locks
     * again (six fcntl calls a commit), and no other program can change the rows under a running sidecar.
     *
     * <p>The WAL index must stay in baton.db-shm, where the start check reads it after a kill: SQLite keeps it in the
     * heap instead when the connection is exclusive at its first access to the WAL, so a read opens the WAL first (a
     * new database, or one whose page size was just changed, has not opened it yet).
     *
     * <p>A program that has the database open already (an idle {@code sqlite3} shell keeps a shared lock on it) makes
     * the lock unavailable. The sidecar then shares the file as SQLite's connections normally do, rather than refusing
     * to start and so every edit.
     */
    private void takeExclusiveLock(java.sql.Statement pragma) throws SQLException {
        pragma(pragma, "PRAGMA user_version");
        pragma.execute("PRAGMA locking_mode = EXCLUSIVE");
        pragma.execute("PRAGMA busy_timeout = 0");
        try {
            pragma.execute("BEGIN EXCLUSIVE");
            pragma.execute("COMMIT");
        } catch (SQLException busy) {
            try {
                pragma.execute("ROLLBACK");
            } catch (SQLException notBegun) {
                // BEGIN itself was refused: there is nothing to roll back.
            }
            pragma.execute("PRAGMA locking_mode = NORMAL");
            LOG.warn("another program has {} open ({}); the sidecar shares the database with it, and takes SQLite's"
                    + " locks at every commit, until its next start", file, busy.getMessage());
        } finally {
            pragma.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MS);
        }
    }

    private static String pragma(java.sql.Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            return rs.next() ? String.valueOf(rs.getString(1)) : "";
        }
    }

    @Override
    public synchronized <K, R> List<R> load(RowKind<K, R> kind) {
        try {
            return rows.load(kind);
        } catch (SQLException e) {
            throw new StoreException("cannot read the " + kind.table() + " of the database " + file + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void commit(Batch batch) {
        try {
            if (!Files.exists(file)) {
                // SQLite would keep writing to the unlinked inode and lose everything at restart.
                throw new SQLException("the database file " + file + " was deleted while the sidecar was running");
            }
            if (begin == null) {
                begin = connection.prepareStatement("BEGIN IMMEDIATE");
                commit = connection.prepareStatement("COMMIT");
            }
            begin.execute();
            write(batch);
            commit.execute();
        } catch (SQLException e) {
            // After SQLITE_FULL the driver leaves a failed statement unusable; the next commit prepares fresh ones.
            closeQuietly(begin);
            closeQuietly(commit);
            begin = null;
            commit = null;
            try (java.sql.Statement rollback = connection.createStatement()) {
                rollback.execute("ROLLBACK");
            } catch (SQLException alreadyEnded) {
                // SQLite ends the transaction by itself on SQLITE_FULL and some I/O errors.
                if (!String.valueOf(alreadyEnded.getMessage()).contains("no transaction is active")) {
                    e.addSuppressed(alreadyEnded);
                }
            }
            throw new StoreException("the database " + file + " refused a write: " + e.getMessage()
                    + "; nothing of this request was applied", e);
        }
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            if (statement != null) {
                statement.close();
            }
        } catch (SQLException e) {
            // It is dropped either way.
        }
    }

    private void write(Batch batch) throws SQLException {
        for (RowWrite write : batch.rows()) {
            rows.write(write);
        }
        for (AuditEntry entry : batch.audit()) {
            insertAudit.setLong(1, entry.at().toEpochMilli());
            insertAudit.setString(2, entry.action());
            insertAudit.setString(3, entry.sessionId());
            insertAudit.setString(4, entry.file());
            insertAudit.setString(5, entry.reason());
            insertAudit.setString(6, entry.actor());
            insertAudit.executeUpdate();
        }
        for (EventRecord event : batch.events()) {
            insertEvent.setLong(1, event.seq());
            insertEvent.setLong(2, event.at().toEpochMilli());
            insertEvent.setString(3, event.kind());
            insertEvent.setString(4, event.data());
            insertEvent.executeUpdate();
        }
        if (batch.eventsPrunedThrough() > 0) {
            pruneEvents.setLong(1, batch.eventsPrunedThrough());
            pruneEvents.executeUpdate();
        }
    }

    @Override
    public synchronized List<AuditEntry> history(String target, long beforeId, int limit) {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT * FROM audit WHERE file = ? AND id < ? ORDER BY id DESC LIMIT ?")) {
            query.setString(1, target);
            query.setLong(2, beforeId);
            query.setInt(3, limit);
            return readAudit(query);
        } catch (SQLException e) {
            throw new StoreException("cannot read the audit log: " + e.getMessage(), e);
        }
    }

    /**
     * Ids are row ids, handed out in order and never reused while the newest row stays, so the oldest rows are the
     * lowest ids and their times grow with them: the cut is found by id (a binary search over row lookups) and the
     * rows below it deleted as a range, without scanning the table.
     */
    @Override
    public synchronized int pruneAudit(Instant before, long keepRows, int batch) {
        try {
            long[] range = auditRange();
            if (range == null) {
                return 0;
            }
            long newest = range[1];
            long cut = Math.max(range[0], newest - keepRows + 1); // ids below are beyond the newest keepRows
            cut = Math.max(cut, firstIdAtOrAfter(before, range[0], newest));
            cut = Math.min(Math.min(cut, newest), range[0] + batch);
            if (cut <= range[0]) {
                return 0;
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM audit WHERE id < ?")) {
                delete.setLong(1, cut);
                return delete.executeUpdate();
            }
        } catch (SQLException e) {
            throw new StoreException("cannot prune the audit log: " + e.getMessage(), e);
        }
    }

    private long[] auditRange() throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT min(id), max(id) FROM audit");
             ResultSet rs = query.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            long oldest = rs.getLong(1);
            return rs.wasNull() ? null : new long[] {oldest, rs.getLong(2)};
        }
    }

    /** The lowest id in [low, high] whose entry is at or after {@code before} (high when none is), by binary search. */
    private long firstIdAtOrAfter(Instant before, long low, long high) throws SQLException {
        try (PreparedStatement at = connection.prepareStatement("SELECT at_ms FROM audit WHERE id >= ? ORDER BY id LIMIT 1")) {
            long lo = low;
            long hi = high;
            while (lo < hi) {
                long mid = lo + (hi - lo) / 2;
                at.setLong(1, mid);
                long atMs;
                try (ResultSet rs = at.executeQuery()) {
                    atMs = rs.next() ? rs.getLong(1) : Long.MAX_VALUE;
                }
                if (atMs < before.toEpochMilli()) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    @Override
    public synchronized List<AuditEntry> auditSince(long afterId, int limit) {
        return queryAudit("SELECT * FROM audit WHERE id > ? ORDER BY id LIMIT ?", afterId, limit);
    }

    private List<AuditEntry> queryAudit(String sql, Object key, int limit) {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setObject(1, key);
            query.setInt(2, limit);
            return readAudit(query);
        } catch (SQLException e) {
            throw new StoreException("cannot read the audit log: " + e.getMessage(), e);
        }
    }

    private static List<AuditEntry> readAudit(PreparedStatement query) throws SQLException {
        List<AuditEntry> entries = new ArrayList<>();
        try (ResultSet rs = query.executeQuery()) {
            while (rs.next()) {
                entries.add(new AuditEntry(rs.getLong("id"), Instants.read(rs, "at_ms"), rs.getString("action"),
                        rs.getString("session_id"), rs.getString("file"), rs.getString("reason"), rs.getString("actor")));
            }
        }
        return entries;
    }

    @Override
    public synchronized List<EventRecord> eventsAfter(long afterSeq, int limit) {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT seq, at_ms, kind, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?")) {
            query.setLong(1, afterSeq);
            query.setInt(2, limit);
            List<EventRecord> events = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    events.add(new EventRecord(rs.getLong("seq"), Instants.read(rs, "at_ms"), rs.getString("kind"),
                            rs.getString("data")));
                }
            }
            return events;
        } catch (SQLException e) {
            throw new StoreException("cannot read the event log: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized long oldestEventSeq() {
        return eventSeq("SELECT min(seq) FROM events");
    }

    @Override
    public synchronized long newestEventSeq() {
        return eventSeq("SELECT max(seq) FROM events");
    }

    private long eventSeq(String sql) {
        try (PreparedStatement query = connection.prepareStatement(sql); ResultSet rs = query.executeQuery()) {
            long seq = rs.next() ? rs.getLong(1) : 0;
            return seq;
        } catch (SQLException e) {
            throw new StoreException("cannot read the event log: " + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "sqlite:" + file;
    }

    /** What the next start checks the database against ({@link StateRecord}); a stop that cannot record it is unclean. */
    private void recordCleanStop() {
        try {
            StateRecord.stopped(connection, System.currentTimeMillis());
        } catch (SQLException e) {
            // Left marked as running: the next start then checks the log, as after a crash.
        }
    }

    @Override
    public synchronized void close() {
        try {
            recordCleanStop();
            connection.close();
        } catch (SQLException e) {
            throw new StoreException("closing the database failed: " + e.getMessage(), e);
        }
    }
}
