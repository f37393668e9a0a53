package dev.baton.installer.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.config.JsonTrees;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Baton's MCP server entry, {@code mcpServers.baton}, in the agents' JSON MCP configuration (Codex's is TOML, see
 * Codex's package). Every agent starts the server as a command over stdio, {@value HookScript#MCP} with no
 * arguments, which starts the sidecar when none runs and passes each message on to its {@code /mcp} endpoint. So an
 * agent that connects to its MCP servers before any hook ran still has Baton's tools, and no entry holds the token
 * or the sidecar's address: the script reads both from BATON_HOME, as a hook does. An entry of an earlier install
 * ({@code baton-hook AGENT Mcp}) is replaced in place.
 */
public final class McpRegistration {

    public static final String SERVER = "baton";

    /**
     * Where one entry goes: a file, and the keys leading from its root to the object that holds {@code mcpServers};
     * and the entry's shape in that agent: its {@code type}, if it has one, and whether it lists the tools to use.
     */
    public record Placement(JsonConfigFile file, List<String> path, Optional<String> type, boolean listsTools) {

        /** An entry at the file's root. */
        public Placement(JsonConfigFile file, Optional<String> type, boolean listsTools) {
            this(file, List.of(), type, listsTools);
        }

        String describe() {
            List<String> keys = new ArrayList<>(path);
            keys.add("mcpServers");
            keys.add(SERVER);
            return String.join(".", keys);
        }
    }

    private McpRegistration() {
    }

    /** The entry for a placement: {@code mcpScript} run as the agent's MCP server. */
    public static ObjectNode entry(Placement placement, Path mcpScript) {
        ObjectNode entry = JsonText.MAPPER.createObjectNode();
        placement.type().ifPresent(type -> entry.put("type", type));
        entry.put("command", mcpScript.toAbsolutePath().toString());
        entry.putArray("args");
        if (placement.listsTools()) {
            entry.putArray("tools").add("*");
        }
        return entry;
    }

    /** Sets the entry, keeping its position when one is already there; returns what changed. */
    public static List<String> add(ObjectNode root, Placement placement, ObjectNode entry) {
        ObjectNode holder = root;
        String key = "";
        for (String step : placement.path()) {
            key = key.isEmpty() ? step : key + "." + step;
            holder = JsonTrees.objectAt(holder, step, key);
        }
        ObjectNode servers = JsonTrees.objectAt(holder, "mcpServers", key.isEmpty() ? "mcpServers" : key + ".mcpServers");
        JsonNode existing = servers.get(SERVER);
        if (entry.equals(existing)) {
            return List.of();
        }
        servers.set(SERVER, entry);
        return List.of((existing == null ? "+ " : "~ ") + "MCP server " + SERVER);
    }

    /** Removes the entry and any object on its path that this left empty; returns what changed. */
    public static List<String> remove(ObjectNode root, Placement placement) {
        List<ObjectNode> chain = new ArrayList<>();
        chain.add(root);
        List<String> keys = new ArrayList<>(placement.path());
        keys.add("mcpServers");
        for (String step : keys) {
            JsonNode next = chain.get(chain.size() - 1).get(step);
            if (next == null || !next.isObject()) {
                return List.of();
            }
            chain.add((ObjectNode) next);
        }
        if (chain.get(chain.size() - 1).remove(SERVER) == null) {
            return List.of();
        }
        for (int i = chain.size() - 1; i > 0 && chain.get(i).isEmpty(); i--) {
            chain.get(i - 1).remove(keys.get(i - 1));
        }
        return List.of("- MCP server " + SERVER);
    }

    public static Optional<JsonNode> find(ObjectNode root, Placement placement) {
        JsonNode node = root;
        for (String step : placement.path()) {
            node = node.path(step);
        }
        JsonNode entry = node.path("mcpServers").get(SERVER);
        return Optional.ofNullable(entry);
    }
}
