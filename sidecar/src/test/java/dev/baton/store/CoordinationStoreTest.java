package dev.baton.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.testing.MutableClock;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import dev.baton.support.TestSidecar.Reply;
import dev.baton.message.MessageRows;
import dev.baton.negotiation.Answer;
import dev.baton.negotiation.NegotiationRequest;
import dev.baton.negotiation.NegotiationRows;
import dev.baton.negotiation.NegotiationView;
import dev.baton.negotiation.Urgency;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Negotiations, messages and read state in SQLite: they survive a restart, and a failed write leaves memory as it was. */
class CoordinationStoreTest {

    @TempDir Path dir;

    @Test
    void negotiationsMessagesAndReadStateSurviveARestart() throws Exception {
        MutableClock clock = MutableClock.startingNow();
        String id;
        NegotiationView before;
        Agent a;
        Agent b;
        try (TestSidecar sidecar = TestSidecar.in(dir).manualClock().clock(clock).start()) {
            a = sidecar.registerAgent("session-a");
            b = sidecar.registerAgent("session-b");
            sidecar.acquire(a, "src/App.java");
            id = sidecar.baton().negotiations().negotiate(new NegotiationRequest(b.id(), sidecar.file("src/App.java"),
                    "need it", Urgency.URGENT, null)).negotiation().id();
            sidecar.baton().negotiations().respond(a.id(), id, new Answer.Defer(7, "almost done"));
            assertThat(sidecar.baton().notices().takeNotices(a.id())).hasSize(1);
            long first = sidecar.baton().messages().send(b.id(), a.id(), "first").message().id();
            sidecar.baton().messages().send(b.id(), "*", "second");
            sidecar.baton().messages().markRead(a.id(), List.of(first));
            sidecar.baton().plans().publish(a.id(), "refactor auth", null);
            before = sidecar.baton().negotiations().view(id);
        }
        try (TestSidecar sidecar = TestSidecar.in(dir).manualClock().clock(clock).start()) {
            assertThat(sidecar.baton().negotiations().view(id)).isEqualTo(before);
            assertThat(sidecar.baton().notices().takeNotices(a.id())).noneMatch(notice -> notice.contains(id));
            JsonNode inbox = sidecar.get("/v1/messages?session_id=" + a.id(), a.proof()).body();
            assertThat(inbox.path("total").asInt()).isEqualTo(2);
            assertThat(inbox.path("unread").asInt()).isEqualTo(1);
            assertThat(sidecar.baton().plans().of(a.id()).goal()).isEqualTo("refactor auth");
            long next = sidecar.baton().messages().send(a.id(), b.id(), "after restart").message().id();
            assertThat(next).isEqualTo(3);
        }
    }

    @Test
    void aVersionOneDatabaseIsUpgradedInPlace() throws Exception {
        Path file = dir.resolve("baton.db");
        new SqliteStore(file).close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE negotiations");
            statement.execute("DROP TABLE messages");
            statement.execute("DROP TABLE message_receipts");
            statement.execute("DROP TABLE events");
            statement.execute("PRAGMA user_version = 1");
        }
        SqliteStore upgraded = new SqliteStore(file);
        assertThat(upgraded.load(NegotiationRows.NEGOTIATIONS)).isEmpty();
        upgraded.close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("PRAGMA user_version")) {
            assertThat(rs.getInt(1)).isEqualTo(Migrations.latest()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aVersionFiveNegotiationIsReadAsOneBetweenSessionsOfThisMachine() throws Exception {
        Path file = dir.resolve("baton.db");
        new SqliteStore(file).close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            // The negotiations table as versions 2 to 5 made it, with one open request.
            statement.execute("DROP TABLE negotiations");
            statement.execute("""
                    CREATE TABLE negotiations (id TEXT PRIMARY KEY, file TEXT NOT NULL, requester_id TEXT NOT NULL,
                        holder_id TEXT NOT NULL, reason TEXT NOT NULL, urgency TEXT NOT NULL, state TEXT NOT NULL,
                        created_ms INTEGER NOT NULL, timeout_ms INTEGER NOT NULL, answered_ms INTEGER, eta_minutes INTEGER,
                        answer_reason TEXT, resolved_ms INTEGER, resolution TEXT,
                        holder_notified INTEGER NOT NULL DEFAULT 0, requester_notified TEXT)""");
            statement.execute("INSERT INTO negotiations (id, file, requester_id, holder_id, reason, urgency, state,"
                    + " created_ms, timeout_ms) VALUES ('n-abcdef', '/repo/a.txt', 's2', 's1', 'need it', 'normal',"
                    + " 'pending', 1000, 2000)");
            statement.execute("PRAGMA user_version = 5");
        }
        try (SqliteStore upgraded = new SqliteStore(file)) {
            assertThat(upgraded.load(NegotiationRows.NEGOTIATIONS)).singleElement().satisfies(n -> {
                assertThat(n.requesterId()).isEqualTo("s2");
                assertThat(n.requesterElsewhere()).isFalse();
                assertThat(n.holderElsewhere()).isFalse();
                assertThat(n.remoteAgent()).isNull();
            });
        }
    }

    @Test
    void aFailedWriteLeavesTheNegotiationAndTheLockAsTheyWere() throws Exception {
        try (TestSidecar sidecar = TestSidecar.in(dir).manualClock().start()) {
            Agent a = sidecar.registerAgent("session-a");
            Agent b = sidecar.registerAgent("session-b");
            sidecar.acquire(a, "src/App.java");
            String id = sidecar.baton().negotiations().negotiate(new NegotiationRequest(b.id(), sidecar.file("src/App.java"),
                    "need it", null, null)).negotiation().id();
            Files.delete(sidecar.home().resolve("baton.db"));

            Reply release = sidecar.post("/v1/locks/release",
                    Map.of("session_id", a.id(), "files", List.of(sidecar.file("src/App.java"))), a.proof());
            assertThat(release.status()).isEqualTo(503);
            assertThat(sidecar.baton().negotiations().view(id).status()).isEqualTo("pending");
            assertThat(sidecar.baton().locks().holderOf(sidecar.file("src/App.java"))).isPresent();

            Reply message = sidecar.post("/v1/messages", Map.of("session_id", b.id(), "to", a.id(), "text", "hi"), b.proof());
            assertThat(message.status()).isEqualTo(503);
            int stored = sidecar.baton().ledger().read(world -> world.table(MessageRows.MESSAGES).byKey().size());
            assertThat(stored).isZero();
            boolean told = sidecar.baton().ledger().read(world -> world.find(NegotiationRows.NEGOTIATIONS, id).orElseThrow()
                    .holderNotified());
            assertThat(told).isFalse();
        }
    }
}
