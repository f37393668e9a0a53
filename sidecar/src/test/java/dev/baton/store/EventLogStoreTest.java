package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.state.Change;
import dev.baton.state.EventRecord;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogStoreTest {

    @TempDir
    Path dir;

    private static EventRecord event(long seq) {
        return new EventRecord(seq, Instant.parse("2026-03-02T09:00:00Z").plusSeconds(seq), "lock.acquired",
                "{\"n\":" + seq + "}");
    }

    @Test
    void eventsAreKeptInOrderAndPrunedUpToANumber() {
        try (SqliteStore store = new SqliteStore(dir.resolve("baton.db"))) {
            assertThat(store.newestEventSeq()).isZero();
            assertThat(store.oldestEventSeq()).isZero();
            store.commit(List.of(new Change.EventRecorded(event(1)), new Change.EventRecorded(event(2)),
                    new Change.EventRecorded(event(3))));
            store.commit(List.of(new Change.EventRecorded(event(4)), new Change.EventsPruned(2)));

            assertThat(store.oldestEventSeq()).isEqualTo(3);
            assertThat(store.newestEventSeq()).isEqualTo(4);
            assertThat(store.eventsAfter(0, 10)).containsExactly(event(3), event(4));
            assertThat(store.eventsAfter(3, 10)).containsExactly(event(4));
            assertThat(store.eventsAfter(0, 1)).containsExactly(event(3));
        }
    }

    @Test
    void theEventScriptRunsWhereverItLandsAmongTheMigrations() throws Exception {
        Path file = dir.resolve("baton.db");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            // A database that has the events table from an earlier place in the order, at an older version.
            statement.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, kind TEXT NOT NULL,"
                    + " data TEXT NOT NULL)");
            statement.execute("INSERT INTO events VALUES (7, 0, 'lock.acquired', '{}')");
        }
        try (SqliteStore store = new SqliteStore(file)) {
            assertThat(store.newestEventSeq()).isEqualTo(7);
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet version = statement.executeQuery("PRAGMA user_version")) {
            assertThat(version.getInt(1)).isEqualTo(Migrations.latest());
        }
    }
}
