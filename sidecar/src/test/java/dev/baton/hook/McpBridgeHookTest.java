package dev.baton.hook;

import static dev.baton.hook.HookHarness.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import dev.baton.support.LineProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Baton's MCP server over stdio ({@code baton-mcp}), run as an agent runs it: one process for the agent's whole
 * session, JSON-RPC messages one per line on stdin, answers one per line on stdout.
 */
class McpBridgeHookTest {

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @TempDir
    Path dir;

    private HookHarness harness;
    private Bridge bridge;

    @AfterEach
    void stop() throws Exception {
        if (bridge != null) {
            bridge.close();
        }
        if (harness != null) {
            harness.close();
            harness.stopSidecarTheScriptStarted();
        }
    }

    @Test
    void anAgentThatStartsItsServerBeforeAnySidecarRunsGetsBatonsToolsFromTheSidecarItStarts() throws Exception {
        harness = HookHarness.withoutSidecar(dir);
        bridge = Bridge.start(harness, env("BATON_BIN", harness.startingWrapper().toString(), "BATON_HOOK_START_TIMEOUT", "60"));

        JsonNode initialized = bridge.ask(INITIALIZE);
        bridge.tell(INITIALIZED);
        JsonNode tools = bridge.ask("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        JsonNode status = bridge.ask("{\"jsonrpc\":\"2.0\",\"id\":\"three\",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"lock_status\",\"arguments\":{}}}");

        assertThat(initialized.at("/id").asInt()).isEqualTo(1);
        assertThat(initialized.at("/result/serverInfo/name").asText()).isEqualTo("baton");
        assertThat(tools.at("/id").asInt()).isEqualTo(2);
        assertThat(tools.at("/result/tools").findValuesAsText("name")).contains("lock_acquire", "lock_status");
        assertThat(status.at("/id").asText()).isEqualTo("three");
        assertThat(status.at("/result/isError").asBoolean()).isFalse();
        assertThat(Files.readString(harness.home().logFile())).contains("Baton sidecar serving on 127.0.0.1:");
        // An agent ending its MCP server kills that process's tree (Copilot CLI does): the sidecar is not in it.
        long sidecar = harness.home().readPid().orElseThrow();
        assertThat(bridge.process.process().descendants().map(ProcessHandle::pid)).doesNotContain(sidecar);
        assertThat(ProcessHandle.of(sidecar)).isPresent();
    }

    /** A restarted sidecar has forgotten the MCP session: the script initializes again, and the agent never knows. */
    @Test
    void aSidecarThatRestartsMidSessionIsGivenTheAgentsInitializeAgainUnseen() throws Exception {
        harness = HookHarness.start(dir);
        bridge = Bridge.start(harness, Map.of());
        bridge.ask(INITIALIZE);
        bridge.tell(INITIALIZED);
        String before = harness.home().readEndpoint().orElseThrow();

        harness.restartSidecar();
        JsonNode tools = bridge.ask("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}");

        assertThat(harness.home().readEndpoint().orElseThrow()).isNotEqualTo(before);
        assertThat(tools.at("/id").asInt()).isEqualTo(7);
        assertThat(tools.at("/result/tools").findValuesAsText("name")).contains("lock_acquire");
    }

    @Test
    void aRequestTheSidecarRefusesIsAnsweredWithItsOwnIdAndANotificationNeverGetsAnAnswer() throws Exception {
        harness = HookHarness.start(dir);
        bridge = Bridge.start(harness, Map.of());

        // Copilot CLI asks this before initialize; Baton has no such method and no session yet.
        JsonNode discover = bridge.ask("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"server/discover\",\"params\":{}}");
        bridge.tell(INITIALIZED); // before any session: refused by the sidecar, and not answered
        JsonNode initialized = bridge.ask(INITIALIZE);

        assertThat(discover.at("/id").asInt()).isEqualTo(5);
        assertThat(discover.at("/error/message").asText()).contains("Mcp-Session-Id");
        assertThat(initialized.at("/id").asInt()).isEqualTo(1);
        assertThat(initialized.has("result")).isTrue();
    }

    @Test
    void whenNoSidecarCanBeStartedEachRequestGetsAnErrorSayingWhyAndTheServerKeepsServing() throws Exception {
        harness = HookHarness.withoutSidecar(dir);
        bridge = Bridge.start(harness, env("BATON_BIN", "/bin/false", "BATON_HOOK_TIMEOUT", "2",
                "BATON_HOOK_START_TIMEOUT", "2"));

        JsonNode first = bridge.ask("{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"initialize\",\"params\":{}}");
        bridge.tell(INITIALIZED);
        bridge.tell("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1,\"id\":5}}");
        // Gemini CLI writes the id last; a tool's arguments may hold ids of their own, even in strings.
        JsonNode second = bridge.ask("{\"method\":\"tools/call\",\"params\":{\"name\":\"lock_status\",\"arguments\":"
                + "{\"id\":\"zzz\",\"note\":\"{\\\"id\\\":7}\",\"deeper\":[{\"id\":8}]}},\"jsonrpc\":\"2.0\",\"id\":-4}");

        assertThat(first.at("/id").asText()).isEqualTo("a\"b");
        assertThat(first.at("/error/message").asText()).isEqualTo("Baton's sidecar did not start within 2 s (see "
                + harness.home().dir() + "/sidecar.log).");
        assertThat(second.at("/id").asInt()).isEqualTo(-4);
        assertThat(bridge.isAlive()).isTrue();
    }

    /**
     * Seeded random sessions of requests and notifications, with ids of every kind (numbers, strings with quotes,
     * braces and backslashes), written first or last, and tool arguments holding ids of their own: every request is
     * answered once, in order, with its own id, and no notification is.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void everyRequestGetsExactlyOneAnswerWithItsOwnIdAndNoNotificationGetsAny(long seed) throws Exception {
        harness = HookHarness.start(dir);
        bridge = Bridge.start(harness, Map.of());
        bridge.ask(INITIALIZE);
        Random random = new Random(seed);
        List<String> methods = List.of("ping", "tools/list", "tools/call", "no/such/method");

        for (int i = 0; i < 40; i++) {
            String method = methods.get(random.nextInt(methods.size()));
            String params = method.equals("tools/call")
                    ? "{\"name\":\"lock_status\",\"arguments\":{\"id\":" + random.nextInt(100) + ",\"files\":[]}}"
                    : "{\"id\":\"" + random.nextInt(100) + "\"}";
            if (random.nextInt(4) == 0) {
                bridge.tell("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/" + method + "\",\"params\":" + params + "}");
                continue;
            }
            String id = switch (random.nextInt(3)) {
                case 0 -> Integer.toString(random.nextInt(2_000_000) - 1_000_000);
                case 1 -> Json.mapper().writeValueAsString("r" + i + "\"}{[\\" + random.nextInt(1000));
                default -> "\"" + i + "\"";
            };
            String request = random.nextBoolean()
                    ? "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}"
                    : "{\"method\":\"" + method + "\",\"params\":" + params + ",\"jsonrpc\":\"2.0\",\"id\":" + id + "}";

            JsonNode answer = bridge.ask(request);

            assertThat(answer.get("id")).as("the answer to %s", request).isEqualTo(Json.mapper().readTree(id));
            assertThat(answer.has("result") != answer.has("error")).isTrue();
        }
        assertThat(bridge.isAlive()).isTrue();
    }

    /**
     * Configs written by earlier installs start the server as the hook script ({@code baton-hook claude Mcp}): that
     * hands over to baton-mcp, also where a Claude hook would do nothing because Copilot has Baton's own hooks.
     */
    @Test
    void anEarlierInstallsServerCommandStillServesThroughBatonMcp() throws Exception {
        harness = HookHarness.start(dir);
        Path copilotHome = Files.createDirectories(dir.resolve("copilot-home/hooks"));
        Files.writeString(copilotHome.resolve("baton.json"), "{}");
        bridge = Bridge.start(harness, List.of(HookHarness.SCRIPT.toString(), "claude", "Mcp"),
                env("COPILOT_HOME", copilotHome.getParent().toString()));

        JsonNode initialized = bridge.ask(INITIALIZE);

        assertThat(initialized.at("/result/serverInfo/name").asText()).isEqualTo("baton");
    }

    @Test
    void claudeFileLockZeroMeansNoBatonServerForThatAgent() throws Exception {
        harness = HookHarness.withoutSidecar(dir);
        bridge = Bridge.start(harness, env("CLAUDE_FILE_LOCK", "0"));

        assertThat(bridge.exitCode()).isZero();
        assertThat(bridge.process.unread()).isEmpty();
        assertThat(harness.home().logFile()).doesNotExist();
    }

    /** The server running as an agent's MCP server: lines in, lines out. */
    private static final class Bridge implements AutoCloseable {

        private final LineProcess process;

        private Bridge(Process process) {
            this.process = new LineProcess(process, "mcp-bridge");
        }

        static Bridge start(HookHarness harness, Map<String, String> env) throws IOException {
            return start(harness, List.of(HookHarness.MCP_SCRIPT.toString()), env);
        }

        static Bridge start(HookHarness harness, List<String> command, Map<String, String> env) throws IOException {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.appendTo(harness.dir().resolve("bridge-stderr.txt").toFile()));
            harness.scriptEnvironment(builder.environment(), env);
            return new Bridge(builder.start());
        }

        /** Sends a request and returns its answer, the next line the script prints. */
        JsonNode ask(String request) throws Exception {
            tell(request);
            return Json.mapper().readTree(process.nextLine("an answer to " + request));
        }

        void tell(String message) throws IOException {
            process.tell(message);
        }

        boolean isAlive() {
            return process.process().isAlive();
        }

        int exitCode() throws Exception {
            return process.exitCode();
        }

        @Override
        public void close() throws Exception {
            process.close();
            assertThat(process.unread()).as("lines nobody asked for").isEmpty();
        }
    }
}
