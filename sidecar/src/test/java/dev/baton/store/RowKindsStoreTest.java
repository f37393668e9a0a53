package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.agent.codex.CodexDialect;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.lock.NamedLock;
import dev.baton.message.Message;
import dev.baton.message.MessageReceipt;
import dev.baton.message.MessageRows;
import dev.baton.negotiation.Negotiation;
import dev.baton.negotiation.NegotiationRows;
import dev.baton.negotiation.NegotiationStatus;
import dev.baton.negotiation.Urgency;
import dev.baton.session.AgentKind;
import dev.baton.session.EndedSession;
import dev.baton.session.Plan;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.Batch;
import dev.baton.state.RowKind;
import dev.baton.state.RowWrite;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every domain row kind through the real SQLite store: what is written reads back the same, every field of it. */
class RowKindsStoreTest {

    private static final Instant AT = Instant.parse("2026-03-02T09:00:00.123Z");

    @TempDir
    Path dir;

    @Test
    void everyKindOfRowReadsBackAsItWasWrittenWithItsNullsAndFlags() {
        ProcessIdentity process = new ProcessIdentity(4242, AT.minusSeconds(60));
        Session full = new Session("s1", ClaudeCodeDialect.KIND, process, "host", "/repo/sub", "/repo", AT, AT.plusSeconds(5),
                "alice", null, "hash", new Plan("ship it", "tests", AT));
        Session bare = new Session("s2", AgentKind.API, null, null, null, null, AT, AT, null, "s1", null, null);
        EndedSession ended = new EndedSession("s0", CodexDialect.KIND, process, "hash0", AT, AT.plusSeconds(1));
        FileLock editing = new FileLock("/repo/a.txt", "s1", AT, null, true);
        FileLock edited = new FileLock("/repo/b.txt", "s2", AT, AT.plusSeconds(2), false);
        NamedLock named = new NamedLock("deploy", process, "host", AT, null);
        Negotiation asked = new Negotiation("n1", "/repo/a.txt", "s2", "s1", "need it", Urgency.URGENT,
                NegotiationStatus.PENDING, AT, AT.plusSeconds(300), null, null, null, null, null, false, null);
        Negotiation answered = new Negotiation("n2", "/repo/b.txt", "s1", "s2", "mine", Urgency.NORMAL,
                NegotiationStatus.RELEASED, AT.plusSeconds(1), AT.plusSeconds(600), AT.plusSeconds(2), 5, "soon",
                AT.plusSeconds(3), "released", true, NegotiationStatus.RELEASED);
        Negotiation acrossMachines = new Negotiation("n3", "/repo/c.txt", "s1", "remote-holder", "theirs",
                Urgency.NORMAL, NegotiationStatus.PENDING, AT, AT.plusSeconds(600), null, null, null, null, null, false,
                null, null, "machine-two", "codex");
        Message message = new Message(7, "s1", "*", "hello", AT);
        MessageReceipt unread = new MessageReceipt(7, "s2", AT, null);
        MessageReceipt read = new MessageReceipt(7, "s3", AT, AT.plusSeconds(4));

        Path file = dir.resolve("baton.db");
        try (SqliteStore store = new SqliteStore(file)) {
            store.commit(rows(upsert(SessionRows.SESSIONS, full), upsert(SessionRows.SESSIONS, bare),
                    upsert(SessionRows.ENDED, ended), upsert(LockRows.FILES, editing), upsert(LockRows.FILES, edited),
                    upsert(LockRows.NAMED, named), upsert(NegotiationRows.NEGOTIATIONS, asked),
                    upsert(NegotiationRows.NEGOTIATIONS, answered),
                    upsert(NegotiationRows.NEGOTIATIONS, acrossMachines), upsert(MessageRows.MESSAGES, message),
                    upsert(MessageRows.RECEIPTS, unread), upsert(MessageRows.RECEIPTS, read)));
        }
        try (SqliteStore store = new SqliteStore(file)) {
            assertThat(store.load(SessionRows.SESSIONS)).containsExactlyInAnyOrder(full, bare);
            assertThat(store.load(SessionRows.ENDED)).containsExactly(ended);
            assertThat(store.load(LockRows.FILES)).containsExactlyInAnyOrder(editing, edited);
            assertThat(store.load(LockRows.NAMED)).containsExactly(named);
            assertThat(store.load(NegotiationRows.NEGOTIATIONS)).containsExactlyInAnyOrder(asked, answered, acrossMachines);
            assertThat(store.load(MessageRows.MESSAGES)).containsExactly(message);
            assertThat(store.load(MessageRows.RECEIPTS)).containsExactlyInAnyOrder(unread, read);
        }
    }

    @Test
    void aRowIsReplacedByItsKeyAndDeletedByItsKeyEvenAKeyOfTwoColumns() {
        MessageReceipt delivered = new MessageReceipt(7, "s2", AT, null);
        MessageReceipt other = new MessageReceipt(7, "s3", AT, null);
        MessageReceipt readLater = new MessageReceipt(7, "s2", AT, AT.plusSeconds(9));
        try (SqliteStore store = new SqliteStore(dir.resolve("baton.db"))) {
            store.commit(rows(upsert(MessageRows.RECEIPTS, delivered), upsert(MessageRows.RECEIPTS, other)));
            store.commit(rows(upsert(MessageRows.RECEIPTS, readLater)));
            assertThat(store.load(MessageRows.RECEIPTS)).containsExactlyInAnyOrder(readLater, other);

            store.commit(rows(new RowWrite.Delete<>(MessageRows.RECEIPTS, readLater)));
            assertThat(store.load(MessageRows.RECEIPTS)).containsExactly(other);
        }
    }

    private static <R> RowWrite upsert(RowKind<?, R> kind, R row) {
        return new RowWrite.Upsert<>(kind, row);
    }

    private static Batch rows(RowWrite... writes) {
        return new Batch(1, List.of(writes), List.of(), List.of(), 0);
    }
}
