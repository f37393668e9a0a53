package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.state.AuditEntry;
import dev.baton.state.Batch;
import dev.baton.state.RowWrite;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open store is the database's only user, and still keeps SQLite's WAL index in {@code baton.db-shm}, where the
 * start check reads how many frames were committed after a kill.
 */
class ExclusiveStoreTest {

    /** Where SQLite's WAL index header keeps the number of the last committed frame (mxFrame), in native order. */
    private static final int MAX_FRAME = 16;
    private static final int WAL_HEADER = 32;
    private static final int FRAME_HEADER = 24;

    @TempDir Path dir;

    @Test
    void anotherProgramCanNeitherReadNorChangeTheRowsWhileTheStoreIsOpenAndCanAfter() throws Exception {
        Path file = dir.resolve("baton.db");
        try (SqliteStore store = new SqliteStore(file)) {
            store.commit(rows(lock("/repo/a.txt")));

            assertThatThrownBy(() -> query(file, "SELECT count(*) FROM locks")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("locked");
            assertThatThrownBy(() -> query(file, "DELETE FROM locks")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("locked");

            store.commit(rows(lock("/repo/b.txt")));
            assertThat(store.load(LockRows.FILES)).extracting(FileLock::file)
                    .containsExactlyInAnyOrder("/repo/a.txt", "/repo/b.txt");
        }
        assertThat(query(file, "SELECT count(*) FROM locks")).isEqualTo("2");
    }

    @Test
    void aDatabaseAnotherProgramHasOpenAtTheStartIsSharedWithItRatherThanRefused() throws Exception {
        Path file = dir.resolve("baton.db");
        new SqliteStore(file).close();
        // As an idle sqlite3 shell holds it after one query: open, with the WAL's shared lock.
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = other.createStatement()) {
            try (ResultSet rs = statement.executeQuery("SELECT count(*) FROM locks")) {
                assertThat(rs.getInt(1)).isZero();
            }
            try (SqliteStore store = new SqliteStore(file)) {
                store.commit(rows(lock("/repo/a.txt")));

                assertThat(store.load(LockRows.FILES)).extracting(FileLock::file).containsExactly("/repo/a.txt");
                try (ResultSet rs = statement.executeQuery("SELECT count(*) FROM locks")) {
                    assertThat(rs.getInt(1)).isOne();
                }
            }
        }
    }

    @Test
    void theWalIndexOnDiskCountsEveryCommitOfANewDatabase() throws Exception {
        assertIndexCountsCommits(dir.resolve("baton.db"));
    }

    @Test
    void theWalIndexOnDiskCountsEveryCommitOfADatabaseWhosePagesWereJustMadeSmaller() throws Exception {
        Path file = dir.resolve("baton.db");
        new SqliteStore(file).close();
        PageSizeStoreTest.giveOldPages(file);
        assertIndexCountsCommits(file);
    }

    private void assertIndexCountsCommits(Path file) throws Exception {
        Path wal = dir.resolve("baton.db-wal");
        Path shm = dir.resolve("baton.db-shm");
        try (SqliteStore store = new SqliteStore(file)) {
            for (int i = 0; i < 5; i++) {
                store.commit(new Batch(i + 1, List.of(lock("/repo/f" + i + ".txt")),
                        List.of(AuditEntry.of(Instant.ofEpochMilli(i), "acquire", "s1", "/repo/f" + i + ".txt", null, null)),
                        List.of(), 0));
                long frames = (Files.size(wal) - WAL_HEADER) / (FRAME_HEADER + SqliteStore.PAGE_SIZE);
                assertThat(Files.exists(shm)).as("baton.db-shm after commit %d", i).isTrue();
                assertThat(maxFrame(shm)).as("frames the index counts after commit %d", i).isEqualTo(frames).isPositive();
            }
        }
    }

    private static long maxFrame(Path shm) throws Exception {
        ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(shm)).order(ByteOrder.nativeOrder());
        return Integer.toUnsignedLong(header.getInt(MAX_FRAME));
    }

    private static RowWrite lock(String path) {
        return new RowWrite.Upsert<>(LockRows.FILES, new FileLock(path, "s1", Instant.ofEpochMilli(1_000), null, false));
    }

    private static Batch rows(RowWrite... writes) {
        return new Batch(1, List.of(writes), List.of(), List.of(), 0);
    }

    /** A query as another program (the sqlite3 shell, say) would run it: its own connection, without waiting. */
    private static String query(Path file, String sql) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("busy_timeout", "0");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file, properties);
             Statement statement = connection.createStatement()) {
            if (!statement.execute(sql)) {
                return String.valueOf(statement.getUpdateCount());
            }
            try (ResultSet rs = statement.getResultSet()) {
                return rs.next() ? rs.getString(1) : "";
            }
        }
    }
}
