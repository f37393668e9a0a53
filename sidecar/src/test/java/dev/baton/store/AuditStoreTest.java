package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.state.AuditEntry;
import dev.baton.state.Batch;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit log in SQLite: an upgraded database keeps its entries and ids, and a commit writes no id counter row. */
class AuditStoreTest {

    @TempDir Path dir;

    @Test
    void aVersionThreeAuditLogKeepsItsIdsAndNewEntriesFollowTheHighest() throws Exception {
        Path file = dir.resolve("baton.db");
        new SqliteStore(file).close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            // The audit table as versions 1 to 3 made it, with two entries and a gap in their ids.
            statement.execute("DROP TABLE audit");
            statement.execute("""
                    CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL, action TEXT NOT NULL,
                        session_id TEXT, file TEXT, reason TEXT, actor TEXT)""");
            statement.execute("CREATE INDEX audit_by_file ON audit(file, id)");
            statement.execute("INSERT INTO audit VALUES (5, 1000, 'acquired', 's1', '/repo/a.txt', NULL, NULL)");
            statement.execute("INSERT INTO audit VALUES (9, 2000, 'released', 's1', '/repo/a.txt', 'released', NULL)");
            statement.execute("PRAGMA user_version = 3");
        }
        try (SqliteStore store = new SqliteStore(file)) {
            assertThat(store.history("/repo/a.txt", 10)).extracting(AuditEntry::id, AuditEntry::action)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(9L, "released"),
                            org.assertj.core.groups.Tuple.tuple(5L, "acquired"));
            store.commit(new Batch(1, List.of(), List.of(AuditEntry.of(Instant.ofEpochMilli(3000), "acquired", "s2",
                    "/repo/a.txt", null, null)), List.of(), 0));
            assertThat(store.auditSince(9, 10)).extracting(AuditEntry::id, AuditEntry::sessionId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(10L, "s2"));
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%AUTOINCREMENT%'")) {
            assertThat(rs.getInt(1)).as("tables that keep an id counter row up to date in every commit").isZero();
        }
    }
}
