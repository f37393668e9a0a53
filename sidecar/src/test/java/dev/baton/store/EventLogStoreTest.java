package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.state.Batch;
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
            store.commit(new Batch(1, List.of(), List.of(), List.of(event(1), event(2), event(3)), 0));
            store.commit(new Batch(2, List.of(), List.of(), List.of(event(4)), 2));

            assertThat(store.oldestEventSeq()).isEqualTo(3);
            assertThat(store.newestEventSeq()).isEqualTo(4);
            assertThat(store.eventsAfter(0, 10)).containsExactly(event(3), event(4));
            assertThat(store.eventsAfter(3, 10)).containsExactly(event(4));
            assertThat(store.eventsAfter(0, 1)).containsExactly(event(3));
        }
    }
}
