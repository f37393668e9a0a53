package dev.baton.agent.opencode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.config.JsonTrees;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Baton's MCP server in OpenCode's configuration, {@code mcp.baton} in {@code opencode.json} (the user's in
 * {@code ~/.config/opencode/}, or the project's at its root): {@code {"type":"local","command":[…]}}, the hook script
 * as the other agents start it ({@code baton-hook opencode Mcp}). OpenCode reads the file as JSON with comments and
 * trailing commas, and so does Baton.
 */
public final class OpenCodeConfig {

    private OpenCodeConfig() {
    }

    /** The configuration file of a scope; OpenCode has no private project scope. */
    public static Optional<JsonConfigFile> file(InstallLayout layout, Scope scope, Path project) {
        return switch (scope) {
            case USER -> Optional.of(JsonConfigFile.shared(OpenCodeWiring.directory(layout).resolve("opencode.json"),
                    OpenCodeWiring.DISPLAY_NAME, OpenCodeWiring.SYNTAX));
            case PROJECT -> Optional.of(JsonConfigFile.shared(project.resolve("opencode.json"),
                    OpenCodeWiring.DISPLAY_NAME, OpenCodeWiring.SYNTAX));
            case LOCAL -> Optional.empty();
        };
    }

    /** Baton's MCP server as OpenCode starts it: {@code baton-mcp}, beside the hook script. */
    public static ObjectNode mcpEntry(Path mcpScript) {
        ObjectNode entry = JsonText.MAPPER.createObjectNode().put("type", "local");
        entry.putArray("command").add(mcpScript.toAbsolutePath().toString());
        return entry;
    }

    /** Sets Baton's entry, keeping its place when one is there; returns what changed. */
    public static List<String> addMcp(ObjectNode root, ObjectNode entry) {
        ObjectNode servers = JsonTrees.objectAt(root, "mcp", "mcp");
        JsonNode existing = servers.get(McpRegistration.SERVER);
        if (entry.equals(existing)) {
            return List.of();
        }
        servers.set(McpRegistration.SERVER, entry);
        return List.of((existing == null ? "+ " : "~ ") + "MCP server " + McpRegistration.SERVER);
    }

    /** Removes Baton's entry, and {@code mcp} when that left it empty; returns what changed. */
    public static List<String> removeMcp(ObjectNode root) {
        JsonNode servers = root.get("mcp");
        if (!(servers instanceof ObjectNode object) || object.remove(McpRegistration.SERVER) == null) {
            return List.of();
        }
        if (object.isEmpty()) {
            root.remove("mcp");
        }
        return List.of("- MCP server " + McpRegistration.SERVER);
    }

    public static Optional<JsonNode> mcpOf(ObjectNode root) {
        return Optional.ofNullable(root.path("mcp").get(McpRegistration.SERVER));
    }

    /** The entry's command line, as OpenCode starts it. */
    public static List<String> commandLine(JsonNode entry) {
        List<String> command = new java.util.ArrayList<>();
        entry.path("command").forEach(word -> command.add(word.asText()));
        return command;
    }
}
