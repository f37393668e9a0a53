package dev.baton.mcp;

import static dev.baton.mcp.McpClient.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import dev.baton.support.TestSidecar.Reply;
import dev.baton.http.Json;
import dev.baton.lock.LockRows;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP endpoint driven the way an MCP client drives it: JSON-RPC over HTTP POST to a real sidecar. The tools that
 * act for a session are called by two agent processes through their own MCP servers ({@code baton-mcp}):
 * each acts for the session of the agent that runs it, with no id or key in any argument.
 */
class McpEndpointTest {

    @TempDir Path dir;
    TestSidecar sidecar;
    McpAgent agentA;
    McpAgent agentB;
    Agent a;
    Agent b;
    McpClient mcp;

    @BeforeEach
    void start() throws Exception {
        sidecar = TestSidecar.in(dir).manualClock().start();
        agentA = McpAgent.start(sidecar);
        agentB = McpAgent.start(sidecar);
        a = sidecar.registerAgent("session-a", agentA.pid());
        b = sidecar.registerAgent("session-b", agentB.pid());
        mcp = McpClient.connected(sidecar);
    }

    @AfterEach
    void stop() throws Exception {
        agentA.close();
        agentB.close();
        sidecar.close();
    }

    static Map<String, Object> args(Object... pairs) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put((String) pairs[i], pairs[i + 1]);
        }
        return arguments;
    }

    @Test
    void initializeAgreesOnAProtocolVersionAndIssuesASessionId() {
        McpClient client = new McpClient(sidecar);
        Reply reply = client.initialize("2025-03-26");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(client.sessionId()).isNotBlank();
        JsonNode result = reply.body().path("result");
        assertThat(result.path("protocolVersion").asText()).isEqualTo("2025-03-26");
        assertThat(result.path("serverInfo").path("name").asText()).isEqualTo("baton");
        assertThat(result.path("capabilities").has("tools")).isTrue();
        assertThat(result.path("instructions").asText()).contains("lock_acquire");

        McpClient future = new McpClient(sidecar);
        assertThat(future.initialize("2099-01-01").body().path("result").path("protocolVersion").asText())
                .isEqualTo(McpEndpoint.PROTOCOL_VERSIONS.get(0));
        assertThat(future.sessionId()).isNotEqualTo(client.sessionId());
    }

    @Test
    void toolsListOffersTheElevenToolsWithTypedSchemasAnAgentCanFollow() {
        JsonNode tools = mcp.request("tools/list", null).body().path("result").path("tools");
        List<String> names = new ArrayList<>();
        tools.forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names).containsExactly("lock_acquire", "lock_release", "lock_status", "restore_file", "negotiate_release",
                "respond_to_release", "send_message", "fetch_inbox", "update_plan", "list_plans", "status");
        for (JsonNode tool : tools) {
            JsonNode schema = tool.path("inputSchema");
            assertThat(tool.path("description").asText()).hasSizeGreaterThan(40);
            assertThat(schema.path("type").asText()).isEqualTo("object");
            assertThat(schema.has("oneOf") || schema.has("anyOf") || schema.has("allOf")).as(tool.path("name").asText()).isFalse();
            schema.path("properties").forEach(property ->
                    assertThat(property.path("description").asText()).as(tool.path("name") + " " + property).isNotBlank());
        }
        JsonNode release = tools.get(1).path("inputSchema").path("properties").path("files");
        assertThat(release.path("oneOf")).hasSize(2);
        assertThat(release.path("oneOf").get(1).path("const").asText()).isEqualTo("all");
        JsonNode answer = tools.get(5).path("inputSchema").path("properties").path("answer");
        assertThat(answer.path("oneOf").get(0).path("const").asText()).isEqualTo("release");
        assertThat(answer.path("oneOf").get(1).path("properties").path("eta_minutes").path("maximum").asInt()).isEqualTo(60);
        assertThat(tools.get(4).path("inputSchema").path("properties").path("urgency").path("enum").toString())
                .isEqualTo("[\"normal\",\"urgent\"]");
    }

    @Test
    void aToolsAcquireSaysWhoElseChangesTheFileInAnotherWorktreeOrWhichCopyHoldsItsLock() throws Exception {
        dev.baton.git.TestRepo repo = dev.baton.git.TestRepo.create(dir.resolve("app"), "src/App.java");
        Path other = dir.resolve("app-b");
        repo.git("worktree", "add", "-q", "-b", "feature-b", other.toString());
        dev.baton.git.TestRepo locked = dev.baton.git.TestRepo.create(dir.resolve("locked"), "src/App.java");
        locked.write(".baton-repository", "branches: lock\n");
        locked.git("add", "-A");
        locked.git("commit", "-q", "-m", "every branch one lock");
        Path lockedOther = dir.resolve("locked-b");
        locked.git("worktree", "add", "-q", "-b", "feature-b", lockedOther.toString());
        agentA.call("lock_acquire", args("files", List.of(repo.path("src/App.java").toString(),
                locked.path("src/App.java").toString())));

        JsonNode told = agentB.call("lock_acquire", args("files", List.of(other.resolve("src/App.java").toString())));
        JsonNode denied = agentB.call("lock_acquire", args("files", List.of(lockedOther.resolve("src/App.java").toString())));

        assertThat(text(told)).contains("acquired: ").contains("is also being changed in another copy of this repository")
                .contains("in " + repo.root() + " on branch main");
        assertThat(text(denied)).contains("held: ").contains("is the same file as " + locked.path("src/App.java")
                + " in another copy of this repository (" + locked.root() + " on branch main)");
    }

    @Test
    void aHandOffRunsEntirelyThroughTools() throws Exception {
        JsonNode taken = agentA.call("lock_acquire", args("files", List.of("src/App.java")));
        assertThat(taken.path("isError").asBoolean()).as(text(taken)).isFalse();
        assertThat(text(taken)).contains("acquired: src/App.java");
        assertThat(sidecar.baton().locks().locksOf(a.id())).hasSize(1);

        JsonNode blocked = agentB.call("lock_acquire", args("files", List.of("src/App.java")));
        assertThat(blocked.path("structuredContent").path("all_acquired").asBoolean()).isFalse();
        assertThat(text(blocked)).contains("src/App.java is held by claude-code session session-", "negotiate_release");

        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return agentB.call("negotiate_release", args("file", "src/App.java", "reason",
                        "the failing test is in this file", "wait_seconds", 600));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        List<String> notices = await().atMost(Duration.ofSeconds(30))
                .until(() -> sidecar.baton().notices().takeNotices(a.id()), list -> !list.isEmpty());
        String id = sidecar.baton().negotiations().pendingRequests().get(0).negotiationId();
        assertThat(notices).singleElement().asString().contains(id, "the failing test is in this file");

        JsonNode deferred = agentA.call("respond_to_release", args("negotiation_id", id,
                "answer", Map.of("eta_minutes", 1, "reason", "saving my work")));
        assertThat(deferred.path("isError").asBoolean()).as(text(deferred)).isFalse();
        assertThat(deferred.path("structuredContent").path("status").asText()).isEqualTo("deferred");

        JsonNode released = agentA.call("respond_to_release", args("negotiation_id", id, "answer", "release"));
        assertThat(released.path("structuredContent").path("status").asText()).isEqualTo("released");

        JsonNode outcome = waiting.get(30, TimeUnit.SECONDS);
        assertThat(outcome.path("structuredContent").path("negotiation").path("status").asText()).isEqualTo("released");
        assertThat(text(agentB.call("lock_acquire", args("files", List.of("src/App.java"))))).contains("acquired: src/App.java");

        JsonNode status = mcp.call("lock_status", Map.of("files", List.of(sidecar.file("src/App.java"))));
        assertThat(status.path("structuredContent").path("files").get(0).path("lock").path("holder").path("session").asText())
                .isEqualTo(b.id());
        JsonNode all = agentB.call("lock_release", args("files", "all"));
        assertThat(all.path("structuredContent").path("released")).hasSize(1);
        assertThat(text(mcp.call("lock_status", Map.of()))).startsWith("no locks are held");
    }

    @Test
    void aFileChangedBehindItsHoldersBackIsPutBackThroughATool() throws Exception {
        java.nio.file.Path app = java.nio.file.Path.of(sidecar.file("src/App.java"));
        java.nio.file.Files.createDirectories(app.getParent());
        java.nio.file.Files.writeString(app, "class App { /* A's */ }\n");
        assertThat(text(agentA.call("lock_acquire", args("files", List.of("src/App.java"))))).contains("acquired");
        java.nio.file.Files.writeString(app, "overwritten by someone else\n");

        JsonNode restored = agentA.call("restore_file", args("file", "src/App.java"));
        JsonNode refused = agentB.call("restore_file", args("file", "src/App.java"));

        assertThat(restored.path("isError").asBoolean()).as(text(restored)).isFalse();
        assertThat(text(restored)).startsWith("restored src/App.java to your last version");
        assertThat(app).hasContent("class App { /* A's */ }");
        assertThat(refused.path("isError").asBoolean()).isTrue();
        assertThat(text(refused)).contains("only that session, or the supervisor");
    }

    @Test
    void messagesPlansAndStatusWorkThroughTools() throws Exception {
        JsonNode sent = agentA.call("send_message", args("to", "*", "text", "I am refactoring the auth module"));
        assertThat(text(sent)).contains("sent to everyone (1 session(s))");

        JsonNode status = agentB.call("status", args());
        assertThat(status.path("structuredContent").path("unread_messages").asInt()).isEqualTo(1);
        assertThat(status.path("structuredContent").path("notices").get(0).asText()).contains("I am refactoring the auth module");

        JsonNode inbox = agentB.call("fetch_inbox", args());
        assertThat(inbox.path("structuredContent").path("messages").get(0).path("text").asText())
                .isEqualTo("I am refactoring the auth module");
        assertThat(agentB.call("fetch_inbox", args()).path("structuredContent").path("total").asInt()).isZero();
        assertThat(agentB.call("fetch_inbox", args("unread_only", false)).path("structuredContent").path("total").asInt())
                .isEqualTo(1);

        JsonNode plan = agentA.call("update_plan", args("goal", "refactor auth", "current_task", "extract TokenStore"));
        assertThat(plan.path("isError").asBoolean()).as(text(plan)).isFalse();
        agentA.call("update_plan", args("current_task", "wire TokenStore"));
        JsonNode plans = mcp.call("list_plans", Map.of());
        assertThat(text(plans)).contains("session-a: goal: refactor auth; now: wire TokenStore", "session-b: (no plan published)");
        assertThat(mcp.call("list_plans", Map.of("session", "session-a")).path("structuredContent").path("plans")).hasSize(1);

        sidecar.acquire(a, "src/App.java");
        JsonNode held = agentB.call("lock_acquire", args("files", List.of("src/App.java")));
        assertThat(text(held)).contains("plan: 'refactor auth — now: wire TokenStore'");
    }

    @Test
    void noToolTakesASessionOrAKeyAndACallerWithoutASessionChangesNothing() throws Exception {
        JsonNode tools = mcp.request("tools/list", null).body().path("result").path("tools");
        for (JsonNode tool : tools) {
            assertThat(tool.at("/inputSchema/properties").has("key")).as(tool.path("name").asText()).isFalse();
            assertThat(tool.at("/inputSchema/required").toString()).as(tool.path("name").asText())
                    .doesNotContain("session_id").doesNotContain("key");
        }

        // This test's own process runs no session: its calls that act for one are refused, naming why.
        assertToolError(mcp.call("lock_acquire", args("files", List.of("src/Util.java"))),
                "UNAUTHORIZED: no Baton session runs above this MCP server (pid " + ProcessHandle.current().pid());
        // An agent naming another session, with that session's key, is refused before anything is looked at.
        assertToolError(agentB.call("lock_acquire", args("session_id", a.id(), "key", a.key(), "files",
                List.of("src/Util.java"))), "unknown argument 'session_id'");
        assertToolError(agentB.call("status", args("session_id", a.id(), "key", a.key())), "unknown argument");

        assertThat(sidecar.baton().locks().locksOf(a.id())).isEmpty();
        assertThat(sidecar.baton().locks().locksOf(b.id())).isEmpty();
        int locks = sidecar.baton().ledger().read(world -> world.count(LockRows.FILES));
        assertThat(locks).isZero();
    }

    @Test
    void refusalsAreToolResultsWithIsErrorAndChangeNothing() throws Exception {
        sidecar.acquire(a, "src/App.java");
        String id = sidecar.baton().negotiations().negotiate(new dev.baton.negotiation.NegotiationRequest(b.id(),
                sidecar.file("src/App.java"), "need it", null, null)).negotiation().id();
        sidecar.baton().notices().takeNotices(a.id());

        assertToolError(agentA.call("respond_to_release", args("negotiation_id", id,
                "answer", Map.of("eta_minutes", 61, "reason", "later"))), "between 1 and 60");
        assertToolError(agentA.call("respond_to_release", args("negotiation_id", "n-nosuch", "answer", "release")), "NOT_FOUND");
        assertToolError(agentA.call("respond_to_release", args("negotiation_id", id, "answer", "defer")), "exactly one of its forms");
        assertToolError(agentB.call("negotiate_release", args("file", "src/App.java", "reason", "x", "urgency", "low")),
                "[\"normal\",\"urgent\"]");
        assertToolError(agentB.call("negotiate_release", args("file", "src/App.java", "reason", "")), "must not be empty");
        assertToolError(agentB.call("negotiate_release", args("file", "src/Other.java", "reason", "x")), "not held by anyone");
        assertToolError(agentA.call("negotiate_release", args("file", "src/App.java", "reason", "x")), "held by this session");
        assertToolError(agentB.call("send_message", args("to", "*", "text", "y".repeat(4001))), "the limit is 4000");
        assertToolError(agentB.call("lock_acquire", args("files", List.of("src/Util.java"), "color", "red")),
                "unknown argument 'color'");
        assertToolError(agentB.call("lock_acquire", args()), "'files' is required");
        assertToolError(agentB.call("lock_release", args("files", "everything")), "exactly one of its forms");
        assertToolError(agentB.call("lock_acquire", args("files", List.of("src/Util.java"), "wait_seconds", "soon")),
                "must be an integer");
        assertToolError(agentB.call("update_plan", args()), "give a goal, a current task, or both");

        assertThat(sidecar.baton().locks().locksOf(b.id())).isEmpty();
        assertThat(sidecar.baton().negotiations().view(id).status()).isEqualTo("pending");
        assertThat(sidecar.baton().negotiations().list(null, false)).hasSize(1);
        assertThat(sidecar.baton().notices().takeNotices(a.id())).isEmpty();
        assertThat(sidecar.baton().plans().of(b.id()).goal()).isNull();
    }

    @Test
    void theTransportFollowsStreamableHttp() throws Exception {
        assertThat(mcp.request("ping", null).body().path("result").isObject()).isTrue();
        assertThat(mcp.notify("notifications/initialized").status()).isEqualTo(202);

        Reply noSession = mcp.post(mcp.message("tools/list", null, true), Map.of());
        assertThat(noSession.status()).isEqualTo(400);
        assertThat(noSession.body().path("error").path("message").asText()).contains("Mcp-Session-Id");
        assertThat(mcp.post(mcp.message("tools/list", null, true), Map.of("Mcp-Session-Id", "nosuch")).status()).isEqualTo(404);
        assertThat(mcp.post(mcp.message("ping", null, true),
                Map.of("Mcp-Session-Id", mcp.sessionId(), "MCP-Protocol-Version", "1999-01-01")).status()).isEqualTo(400);

        JsonNode unknownMethod = mcp.request("resources/list", null).body();
        assertThat(unknownMethod.path("error").path("code").asInt()).isEqualTo(-32601);
        JsonNode unknownTool = mcp.request("tools/call", Json.mapper().createObjectNode().put("name", "rm_rf")).body();
        assertThat(unknownTool.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(unknownTool.path("error").path("message").asText()).contains("lock_acquire");

        Reply garbage = mcp.post("{not json", mcp.sessionHeaders());
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.body().path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(garbage.body().has("id")).isTrue();

        Reply batch = mcp.post(List.of(mcp.message("ping", null, true), mcp.message("tools/list", null, true),
                mcp.message("notifications/initialized", null, false)), mcp.sessionHeaders());
        assertThat(batch.body().isArray()).isTrue();
        assertThat(batch.body()).hasSize(2);

        Reply stream = sidecar.get("/mcp", mcp.sessionHeaders());
        assertThat(stream.status()).isEqualTo(405);

        assertThat(sidecar.delete("/mcp", mcp.sessionHeaders()).status()).isEqualTo(204);
        assertThat(mcp.request("ping", null).status()).isEqualTo(404);

        HttpClient raw = HttpClient.newHttpClient();
        HttpResponse<String> noToken = raw.send(HttpRequest.newBuilder(URI.create(sidecar.base() + "/mcp"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noToken.statusCode()).isEqualTo(401);
        HttpResponse<String> foreign = raw.send(HttpRequest.newBuilder(URI.create(sidecar.base() + "/mcp"))
                .header("Authorization", "Bearer " + sidecar.token())
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(foreign.statusCode()).isEqualTo(403);
    }

    private static void assertToolError(JsonNode result, String phrase) {
        assertThat(result.path("isError").asBoolean()).as(text(result)).isTrue();
        assertThat(text(result)).contains(phrase);
    }
}
