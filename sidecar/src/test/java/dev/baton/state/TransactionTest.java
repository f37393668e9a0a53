package dev.baton.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kernel's tables with a row kind of the test's own: keys, groups, ids that only grow, and undo. */
class TransactionTest {

    /** A row of the test's kind: a numbered note kept by a session. */
    record Note(long id, String owner, String text) {
    }

    /** Kept by id; grouped by owner. Never stored: the world here is loaded from a store with no rows. */
    static final RowKind<Long, Note> NOTES = new RowKind<>() {
        @Override
        public String table() {
            return "notes";
        }

        @Override
        public List<Column> columns() {
            return List.of(Column.integer("id"), Column.text("owner"), Column.text("text"));
        }

        @Override
        public Long key(Note note) {
            return note.id();
        }

        @Override
        public Object[] values(Note note) {
            return new Object[] {note.id(), note.owner(), note.text()};
        }

        @Override
        public Note read(Row row) {
            return new Note(row.number("id"), row.text("owner"), row.text("text"));
        }

        @Override
        public Order order() {
            return Order.BY_KEY;
        }

        @Override
        public Object group(Note note) {
            return note.owner();
        }
    };

    private final World world = new World(new EmptyStore(), List.of(NOTES));

    @Test
    void aRowThatChangesOwnerMovesBetweenGroupsAndLeavesNoEmptyGroupBehind() {
        Transaction tx = new Transaction(world, Instant.EPOCH);
        tx.put(NOTES, new Note(1, "a", "one"));
        tx.put(NOTES, new Note(2, "a", "two"));
        tx.put(NOTES, new Note(1, "b", "one, handed over"));

        assertThat(world.keysIn(NOTES, "a")).containsExactly(2L);
        assertThat(world.keysIn(NOTES, "b")).containsExactly(1L);
        tx.remove(NOTES, 2L);
        assertThat(world.keysIn(NOTES, "a")).isEmpty();
        assertThat(world.table(NOTES).byKey().keySet()).containsExactly(1L);
    }

    @Test
    void theHighestKeyIsRememberedAfterItsRowIsRemoved() {
        Transaction tx = new Transaction(world, Instant.EPOCH);
        tx.put(NOTES, new Note(3, "a", "three"));
        tx.put(NOTES, new Note(5, "a", "five"));
        tx.remove(NOTES, 5L);

        assertThat(world.table(NOTES).highestKey()).isEqualTo(5L);
    }

    @Test
    void aRolledBackTransactionLeavesTheRowsAndGroupsAsTheyWereAndWritesNothing() {
        Transaction first = new Transaction(world, Instant.EPOCH);
        first.put(NOTES, new Note(1, "a", "one"));
        first.put(NOTES, new Note(2, "a", "two"));

        Transaction failed = new Transaction(world, Instant.EPOCH);
        failed.put(NOTES, new Note(1, "b", "one, changed"));
        failed.remove(NOTES, 2L);
        failed.put(NOTES, new Note(3, "c", "three"));
        assertThat(failed.writes()).hasSize(3);
        failed.rollback();

        assertThat(world.rows(NOTES)).containsExactly(new Note(1, "a", "one"), new Note(2, "a", "two"));
        assertThat(world.keysIn(NOTES, "a")).containsExactly(1L, 2L);
        assertThat(world.keysIn(NOTES, "b")).isEmpty();
        assertThat(world.keysIn(NOTES, "c")).isEmpty();
        assertThat(failed.writes()).isEmpty();
        assertThat(failed.changedNothing()).isTrue();
    }

    @Test
    void removingARowThatIsNotThereWritesNothing() {
        Transaction tx = new Transaction(world, Instant.EPOCH);
        assertThat(tx.remove(NOTES, 9L)).isNull();
        assertThat(tx.changedNothing()).isTrue();
    }

    /** A store that holds no rows and takes no commits: the tests here never reach it. */
    private static final class EmptyStore implements Store {
        @Override
        public <K, R> List<R> load(RowKind<K, R> kind) {
            return List.of();
        }

        @Override
        public void commit(Batch batch) {
            throw new UnsupportedOperationException("the test commits nothing");
        }

        @Override
        public List<AuditEntry> history(String file, long beforeId, int limit) {
            return List.of();
        }

        @Override
        public int pruneAudit(Instant before, long keepRows, int batch) {
            return 0;
        }

        @Override
        public List<AuditEntry> auditSince(long afterId, int limit) {
            return List.of();
        }

        @Override
        public List<EventRecord> eventsAfter(long afterSeq, int limit) {
            return List.of();
        }

        @Override
        public long oldestEventSeq() {
            return 0;
        }

        @Override
        public long newestEventSeq() {
            return 0;
        }

        @Override
        public String describe() {
            return "empty";
        }

        @Override
        public void close() {
        }
    }
}
