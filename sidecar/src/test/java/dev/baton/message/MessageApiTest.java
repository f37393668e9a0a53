package dev.baton.message;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import dev.baton.support.TestSidecar.Reply;
import dev.baton.support.ChildProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Messages between sessions over the real HTTP API. */
class MessageApiTest {

    @TempDir Path dir;
    TestSidecar sidecar;
    Agent alpha;
    Agent bravo;
    Agent charlie;

    /** The agents' processes: children of this test, which reads as the supervisor and so must be none of them. */
    final List<ChildProcess> agents = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        sidecar = TestSidecar.in(dir).manualClock().start();
        alpha = register("alpha-1111");
        bravo = register("bravo-2222");
        charlie = register("charlie-3333");
    }

    @AfterEach
    void stop() {
        sidecar.close();
        agents.forEach(ChildProcess::close);
    }

    Agent register(String id) {
        ChildProcess agent = ChildProcess.sleeping();
        agents.add(agent);
        return sidecar.registerAgent(id, agent.pid());
    }

    Reply send(Agent from, String to, String text) {
        return sidecar.post("/v1/messages", Map.of("session_id", from.id(), "to", to, "text", text), from.proof());
    }

    JsonNode inbox(Agent agent, String query) {
        Reply reply = sidecar.get("/v1/messages?session_id=" + agent.id() + query, agent.proof());
        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        return reply.body();
    }

    Reply markRead(Agent agent, Map<String, Object> what) {
        Map<String, Object> body = new LinkedHashMap<>(what);
        body.put("session_id", agent.id());
        return sidecar.post("/v1/messages/read", body, agent.proof());
    }

    @Test
    void aMessageIsShownOnceOnTheNextHookCallAndStaysUnreadUntilMarkedRead() {
        Reply sent = send(bravo, "alp", "I am done with src/App.java");
        assertThat(sent.status()).isEqualTo(201);
        long id = sent.body().path("message").path("id").asLong();
        assertThat(sent.body().path("message").path("recipient").asText()).isEqualTo(alpha.id());

        List<String> notices = sidecar.baton().notices().takeNotices(alpha.id());
        assertThat(notices).singleElement().asString()
                .contains("message " + id, "bravo-22", "I am done with src/App.java", "baton msg read " + id);
        assertThat(sidecar.baton().notices().takeNotices(alpha.id())).isEmpty();
        assertThat(sidecar.baton().notices().takeNotices(bravo.id())).isEmpty();

        JsonNode unread = inbox(alpha, "&unread=true");
        assertThat(unread.path("total").asInt()).isEqualTo(1);
        assertThat(unread.path("messages").get(0).hasNonNull("delivered_at")).isTrue();
        assertThat(unread.path("messages").get(0).hasNonNull("read_at")).isFalse();

        Reply read = markRead(alpha, Map.of("ids", List.of(id)));
        assertThat(read.body().path("marked")).hasSize(1);
        assertThat(inbox(alpha, "&unread=true").path("total").asInt()).isZero();
        assertThat(markRead(alpha, Map.of("ids", List.of(id))).body().path("already_read")).hasSize(1);
    }

    @Test
    void theSupervisorListsEveryMessageBetweenAnySessionsNewestFirst() {
        send(alpha, "bravo", "take src/App.java, I am done");
        send(charlie, "*", "rebasing main in 5 minutes");
        assertThat(markRead(bravo, Map.of("all", true)).status()).isEqualTo(200);

        Reply all = sidecar.getAsSupervisor("/v1/messages?all=true");

        assertThat(all.status()).as(all.body().toString()).isEqualTo(200);
        JsonNode messages = all.body().path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("from").asText()).isEqualTo(charlie.id());
        assertThat(messages.get(0).path("to").asText()).isEqualTo("*");
        assertThat(messages.get(0).path("text").asText()).isEqualTo("rebasing main in 5 minutes");
        assertThat(messages.get(0).hasNonNull("read")).as("a broadcast is read by each session on its own").isFalse();
        assertThat(messages.get(1).path("from").asText()).isEqualTo(alpha.id());
        assertThat(messages.get(1).path("to").asText()).isEqualTo(bravo.id());
        assertThat(messages.get(1).path("read").asBoolean()).isTrue();
        assertThat(messages.get(1).hasNonNull("sent_at")).isTrue();
    }

    @Test
    void everySessionsMessagesAreTheSupervisorsToReadNotAnAgentsWithTheSharedToken() {
        send(alpha, "bravo", "private: the staging password is in vault");

        Reply agent = sidecar.get("/v1/messages?all=true", alpha.proof());

        assertThat(agent.status()).as(agent.body().toString()).isEqualTo(403);
        assertThat(agent.body().toString()).doesNotContain("staging password");
    }

    @Test
    void theSupervisorsListingRefusesASessionIdInsteadOfGuessingWhichViewIsMeant() {
        Reply mixed = sidecar.getAsSupervisor("/v1/messages?all=true&session_id=" + alpha.id());

        assertThat(mixed.status()).isEqualTo(400);
        assertThat(mixed.body().path("error").path("message").asText()).contains("leave out session_id");
    }

    @Test
    void aBroadcastIsReadByEachRecipientIndependently() {
        Reply sent = send(alpha, "*", "heads up: rebasing main in 5 minutes");
        assertThat(sent.body().path("recipients").asInt()).isEqualTo(2);
        long id = sent.body().path("message").path("id").asLong();
        sidecar.clock().advance(Duration.ofMillis(5));
        Agent latecomer = register("delta-4444");

        assertThat(markRead(bravo, Map.of("ids", List.of(id))).status()).isEqualTo(200);
        assertThat(inbox(bravo, "&unread=true").path("total").asInt()).isZero();
        assertThat(inbox(charlie, "&unread=true").path("total").asInt()).isEqualTo(1);
        assertThat(inbox(charlie, "").path("messages").get(0).path("broadcast").asBoolean()).isTrue();
        assertThat(sidecar.baton().notices().takeNotices(charlie.id())).singleElement().asString().contains("to everyone");

        assertThat(markRead(charlie, Map.of("all", true)).body().path("marked")).hasSize(1);
        assertThat(inbox(charlie, "&unread=true").path("total").asInt()).isZero();
        assertThat(inbox(alpha, "").path("total").asInt()).isZero();
        assertThat(inbox(latecomer, "").path("total").asInt()).isZero();
    }

    @Test
    void anInboxOf500MessagesIsPagedNewestFirstAndFiltered() {
        for (int i = 1; i <= 500; i++) {
            assertThat(send(bravo, alpha.id(), "message number " + i).status()).isEqualTo(201);
        }
        JsonNode first = inbox(alpha, "&page_size=50");
        assertThat(first.path("total").asInt()).isEqualTo(500);
        assertThat(first.path("pages").asInt()).isEqualTo(10);
        assertThat(first.path("unread").asInt()).isEqualTo(500);
        assertThat(first.path("messages")).hasSize(50);
        assertThat(first.path("messages").get(0).path("text").asText()).isEqualTo("message number 500");

        List<String> all = new ArrayList<>();
        for (int page = 1; page <= 10; page++) {
            inbox(alpha, "&page_size=50&page=" + page).path("messages").forEach(m -> all.add(m.path("text").asText()));
        }
        assertThat(all).hasSize(500).doesNotHaveDuplicates().endsWith("message number 1");
        assertThat(inbox(alpha, "&page_size=50&page=11").path("messages")).isEmpty();
        assertThat(inbox(alpha, "").path("messages")).hasSize(InboxQuery.DEFAULT_PAGE_SIZE);

        List<Long> firstHundred = new ArrayList<>();
        inbox(alpha, "&page_size=100&page=5").path("messages").forEach(m -> firstHundred.add(m.path("id").asLong()));
        markRead(alpha, Map.of("ids", firstHundred));
        JsonNode unread = inbox(alpha, "&unread=true&page_size=200");
        assertThat(unread.path("total").asInt()).isEqualTo(400);
        assertThat(unread.path("pages").asInt()).isEqualTo(2);

        Instant later = sidecar.clock().instant().plusSeconds(60);
        sidecar.clock().advance(Duration.ofSeconds(60));
        send(charlie, alpha.id(), "from charlie, later");
        assertThat(inbox(alpha, "&from=char").path("total").asInt()).isEqualTo(1);
        assertThat(inbox(alpha, "&since=" + later).path("messages").get(0).path("text").asText()).isEqualTo("from charlie, later");
        assertThat(inbox(alpha, "&since=" + later).path("total").asInt()).isEqualTo(1);
    }

    @Test
    void invalidInputsAreRefusedWithClearErrorsAndChangeNothing() {
        long kept = send(bravo, alpha.id(), "keep me").body().path("message").path("id").asLong();

        assertRefused(send(bravo, alpha.id(), "x".repeat(Messages.MAX_TEXT_LENGTH + 1)), 400, "the limit is 4000");
        assertRefused(send(bravo, alpha.id(), "  "), 400, "the message is empty");
        assertRefused(send(bravo, "zulu", "hello?"), 404, "no running session id starts with 'zulu'");
        register("alpha-9999");
        assertRefused(send(bravo, "alpha", "which one?"), 400, "matches 2 sessions");
        assertRefused(send(bravo, bravo.id(), "note to self"), 400, "to itself");
        assertRefused(sidecar.post("/v1/messages", Map.of("session_id", bravo.id(), "to", "*", "text", "hi"), alpha.proof()),
                401, "key does not match");
        assertRefused(markRead(alpha, Map.of("ids", List.of(kept, 9999L))), 404, "message 9999 is not in the inbox");
        assertRefused(markRead(alpha, Map.of("ids", List.of(kept), "all", true)), 400, "not both");
        assertRefused(markRead(alpha, Map.of()), 400, "name the messages");
        assertRefused(markRead(charlie, Map.of("ids", List.of(kept))), 404, "not in the inbox");
        assertRefused(sidecar.get("/v1/messages?session_id=" + alpha.id() + "&page=0", alpha.proof()), 400, "page");
        assertRefused(sidecar.get("/v1/messages?session_id=" + alpha.id() + "&page_size=201", alpha.proof()), 400, "page_size");
        assertRefused(sidecar.get("/v1/messages?session_id=" + alpha.id() + "&since=yesterday", alpha.proof()), 400, "ISO-8601");
        assertRefused(sidecar.get("/v1/messages?session_id=" + alpha.id(), bravo.proof()), 401, "key does not match");

        JsonNode inbox = inbox(alpha, "");
        assertThat(inbox.path("total").asInt()).isEqualTo(1);
        assertThat(inbox.path("unread").asInt()).isEqualTo(1);
        int stored = sidecar.baton().ledger().read(world -> world.table(MessageRows.MESSAGES).byKey().size());
        assertThat(stored).isEqualTo(1);
    }

    @Test
    void messagesNobodyCanReadAnyMoreArePrunedBySweeping() {
        send(bravo, alpha.id(), "for alpha");
        send(alpha, bravo.id(), "for bravo");
        sidecar.delete("/v1/sessions/" + alpha.id(), alpha.proof());
        sidecar.baton().sweepCoordination();
        List<String> kept = sidecar.baton().ledger().read(world -> world.table(MessageRows.MESSAGES).byKey().values().stream()
                .map(Message::text).toList());
        assertThat(kept).containsExactly("for bravo");
    }

    private static void assertRefused(Reply reply, int status, String phrase) {
        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(status);
        assertThat(reply.body().path("error").path("message").asText()).contains(phrase);
    }
}
