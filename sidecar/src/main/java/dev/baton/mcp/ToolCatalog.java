package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.Baton;
import dev.baton.http.Json;
import dev.baton.state.BatonException;
import dev.baton.state.StoreException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Baton's MCP tools, in the order agents see them, and the one place a call is checked against
 * its schema and a failure becomes an {@code isError} result with a sentence the model can act on.
 */
final class ToolCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(ToolCatalog.class);

    private final Map<String, Tool> tools = new LinkedHashMap<>();

    private ToolCatalog(List<Tool> all) {
        all.forEach(tool -> tools.put(tool.name(), tool));
    }

    static ToolCatalog of(Baton baton) {
        List<Tool> all = new ArrayList<>();
        all.addAll(new LockTools(baton).tools());
        all.addAll(new NegotiationTools(baton).tools());
        all.addAll(new MessageTools(baton).tools());
        all.addAll(new PlanTools(baton).tools());
        all.add(new StatusTool(baton).tool());
        return new ToolCatalog(all);
    }

    Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    List<String> names() {
        return List.copyOf(tools.keySet());
    }

    ObjectNode list() {
        ObjectNode result = Json.mapper().createObjectNode();
        ArrayNode entries = result.putArray("tools");
        for (Tool tool : tools.values()) {
            ObjectNode entry = entries.addObject();
            entry.put("name", tool.name());
            entry.put("title", tool.title());
            entry.put("description", tool.description());
            entry.set("inputSchema", tool.inputSchema());
        }
        return result;
    }

    ToolResult call(Tool tool, JsonNode arguments, McpCaller caller) {
        String problem = SchemaCheck.problem(arguments, tool.inputSchema(), "");
        if (problem != null) {
            return ToolResult.error("Invalid arguments for " + tool.name() + ": " + problem + ". Nothing was changed.");
        }
        try {
            return tool.handler().call(new ToolArgs((ObjectNode) arguments, caller));
        } catch (BatonException e) {
            return ToolResult.error(e.code().name() + ": " + e.getMessage());
        } catch (StoreException e) {
            LOG.error("storage failure in tool {}: {}", tool.name(), e.getMessage());
            return ToolResult.error("STORAGE: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("tool {} failed", tool.name(), e);
            return ToolResult.error("INTERNAL: the sidecar failed on this call (" + e.getClass().getSimpleName()
                    + "); see sidecar.log");
        }
    }
}
