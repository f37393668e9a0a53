package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.state.AuditEntry;
import dev.baton.state.Batch;
import dev.baton.state.RowWrite;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The database's page size: small pages for new databases, and an older database rewritten to them with its rows. */
class PageSizeStoreTest {

    @TempDir Path dir;

    @Test
    void aNewDatabaseHasSmallPagesAndStaysInWalMode() throws Exception {
        Path file = dir.resolve("baton.db");
        new SqliteStore(file).close();
        assertThat(pragma(file, "page_size")).isEqualTo(String.valueOf(SqliteStore.PAGE_SIZE));
        assertThat(pragma(file, "journal_mode")).isEqualTo("wal");
    }

    @Test
    void aDatabaseWithBigPagesIsRewrittenOnceWithItsLocksAndAudit() throws Exception {
        Path file = dir.resolve("baton.db");
        Instant at = Instant.ofEpochMilli(1_000);
        try (SqliteStore store = new SqliteStore(file)) {
            FileLock lock = new FileLock("/repo/a.txt", "s1", at, null, false);
            store.commit(new Batch(1, List.of(new RowWrite.Upsert<>(LockRows.FILES, lock)),
                    List.of(AuditEntry.of(at, "acquire", "s1", "/repo/a.txt", null, null)), List.of(), 0));
        }
        giveOldPages(file);
        assertThat(pragma(file, "page_size")).isEqualTo("4096");

        try (SqliteStore store = new SqliteStore(file)) {
            assertThat(store.load(LockRows.FILES)).extracting(FileLock::file, FileLock::sessionId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("/repo/a.txt", "s1"));
            assertThat(store.history("/repo/a.txt", 10)).extracting(AuditEntry::action).containsExactly("acquire");
        }
        assertThat(pragma(file, "page_size")).isEqualTo(String.valueOf(SqliteStore.PAGE_SIZE));
        assertThat(pragma(file, "journal_mode")).isEqualTo("wal");
    }

    /** Rewrites a closed database with SQLite's default 4 KiB pages, as versions before the small pages left it. */
    static void giveOldPages(Path file) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = DELETE");
            statement.execute("PRAGMA page_size = 4096");
            statement.execute("VACUUM");
            statement.execute("PRAGMA journal_mode = WAL");
        }
    }

    private static String pragma(Path file, String name) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("PRAGMA " + name)) {
            return rs.getString(1);
        }
    }
}
