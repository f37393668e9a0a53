package dev.baton.installer.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.installer.config.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Starts an installed MCP server command the way its agent starts it (the command and its arguments, no shell; for
 * Codex only the variables Codex passes on), says initialize, asks tools/list and closes its input, then says
 * whether Baton's tools came back or what the server answered instead.
 */
public final class McpProbe {

    /** What the probe saw: Baton's tools listed or not, and in words. */
    public record Outcome(boolean listed, String description) {
    }

    private static final String MESSAGES = String.join("\n",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"baton-doctor\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", "");

    private final Map<String, String> environment;

    public McpProbe(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * @param passedOn which of the doctor's variables the agent passes on to an MCP server it starts (most agents
     *                 pass on every one)
     */
    public Outcome probe(List<String> command, Predicate<String> passedOn) {
        try {
            ProbeRun run = ProbeRun.run(command, environment(passedOn), null,
                    MESSAGES.getBytes(StandardCharsets.UTF_8));
            if (run.timedOut()) {
                return new Outcome(false, "no answer to initialize and tools/list within " + ProbeRun.LIMIT.toSeconds() + " s");
            }
            return judge(run.out().lines().toList(), run.err().strip());
        } catch (IOException e) {
            return new Outcome(false, "could not run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, "interrupted");
        }
    }

    private static Outcome judge(List<String> lines, String stderr) {
        for (String line : lines) {
            JsonNode answer;
            try {
                answer = JsonText.MAPPER.readTree(line);
            } catch (IOException notJson) {
                return new Outcome(false, "it printed something that is not JSON-RPC: " + ProbeRun.firstLine(line));
            }
            if (answer == null || answer.path("id").asInt() != 2) {
                if (answer != null && answer.has("error")) {
                    return new Outcome(false, "initialize failed: " + answer.path("error").path("message").asText());
                }
                continue;
            }
            if (answer.has("error")) {
                return new Outcome(false, "tools/list failed: " + answer.path("error").path("message").asText());
            }
            List<String> names = new ArrayList<>();
            answer.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asText()));
            if (!names.contains("lock_acquire")) {
                return new Outcome(false, "tools/list did not list Baton's tools: " + names);
            }
            return new Outcome(true, "initialize and tools/list answered: " + names.size() + " tools");
        }
        return new Outcome(false, "no answer to tools/list" + (stderr.isEmpty() ? "" : ": " + ProbeRun.firstLine(stderr)));
    }

    private Map<String, String> environment(Predicate<String> passedOn) {
        Map<String, String> passed = new HashMap<>();
        environment.forEach((name, value) -> {
            if (passedOn.test(name)) {
                passed.put(name, value);
            }
        });
        return passed;
    }
}
