package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.support.TestSidecar;
import dev.baton.http.Json;
import dev.baton.support.LineProcess;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real agent-like process (a shell) that runs Baton's MCP server as its child, as an agent does: {@code baton-mcp},
 * JSON-RPC messages one per line on its stdin, answers on its stdout. The tools it calls act for
 * the session registered on this shell's process, found by the sidecar from the MCP connection's process.
 */
final class McpAgent implements AutoCloseable {

    static final Path SCRIPT = Path.of("..", "hook-scripts", "baton-mcp").toAbsolutePath().normalize();
    private final LineProcess process;
    private final AtomicLong ids = new AtomicLong();

    private McpAgent(Process process) {
        this.process = new LineProcess(process, "mcp-agent");
    }

    /** Starts the agent and its MCP server, and initializes the server as a client does. */
    static McpAgent start(TestSidecar sidecar) throws Exception {
        // `; :` keeps bash from replacing itself with the script: the shell stays the server's parent, as an agent is.
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", "\"$0\"; :", SCRIPT.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().remove("BATON_FAIL_OPEN");
        builder.environment().put("BATON_HOME", sidecar.home().toString());
        builder.environment().put("BATON_HOOK_TIMEOUT", "45");
        McpAgent agent = new McpAgent(builder.start());
        JsonNode initialized = agent.ask("initialize", Json.mapper().createObjectNode()
                .put("protocolVersion", "2025-06-18")
                .<ObjectNode>set("capabilities", Json.mapper().createObjectNode())
                .set("clientInfo", Json.mapper().createObjectNode().put("name", "stand-in agent").put("version", "1")));
        assertThat(initialized.at("/result/serverInfo/name").asText()).as(initialized.toString()).isEqualTo("baton");
        agent.process.tell("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return agent;
    }

    long pid() {
        return process.process().pid();
    }

    /** The result of tools/call: {content, structuredContent, isError}. */
    JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
        ObjectNode params = Json.mapper().createObjectNode().put("name", tool);
        params.set("arguments", Json.mapper().valueToTree(arguments));
        JsonNode answer = ask("tools/call", params);
        assertThat(answer.has("result")).as(answer.toString()).isTrue();
        return answer.get("result");
    }

    private JsonNode ask(String method, JsonNode params) throws Exception {
        long id = ids.incrementAndGet();
        ObjectNode message = Json.mapper().createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        message.set("params", params);
        process.tell(message.toString());
        JsonNode answer = Json.mapper().readTree(process.nextLine("an answer to " + method));
        assertThat(answer.path("id").asLong()).isEqualTo(id);
        return answer;
    }

    @Override
    public void close() throws Exception {
        process.close();
    }
}
