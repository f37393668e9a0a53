package dev.baton.installer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/** Claude Code's settings files, and the permission rule that lets Claude Code call Baton's MCP tools unasked. */
final class ClaudeSettings {

    /** Every tool of the {@code baton} MCP server; without it Claude Code refuses them in {@code -p} mode. */
    static final String MCP_RULE = "mcp__" + McpRegistration.SERVER + "__*";

    private ClaudeSettings() {
    }

    static Path file(InstallLayout layout, Scope scope, Path project) {
        return switch (scope) {
            case USER -> layout.claudeDir().resolve("settings.json");
            case PROJECT -> project.resolve(".claude/settings.json");
            case LOCAL -> project.resolve(".claude/settings.local.json");
        };
    }

    /** Adds {@link #MCP_RULE} to {@code permissions.allow} unless it is there. */
    static List<String> allowMcpTools(ObjectNode settings) {
        ObjectNode permissions = JsonTrees.objectAt(settings, "permissions", "permissions");
        ArrayNode allow = JsonTrees.arrayAt(permissions, "allow", "permissions.allow");
        for (JsonNode rule : allow) {
            if (MCP_RULE.equals(rule.asText())) {
                return List.of();
            }
        }
        allow.add(MCP_RULE);
        return List.of("+ permission " + MCP_RULE);
    }

    /** Removes {@link #MCP_RULE}, and the containers that this left empty. */
    static List<String> removeMcpRule(ObjectNode settings) {
        JsonNode permissions = settings.get("permissions");
        if (permissions == null || !permissions.isObject() || !permissions.path("allow").isArray()) {
            return List.of();
        }
        ArrayNode allow = (ArrayNode) permissions.get("allow");
        for (int i = 0; i < allow.size(); i++) {
            if (MCP_RULE.equals(allow.get(i).asText())) {
                allow.remove(i);
                if (allow.isEmpty()) {
                    ((ObjectNode) permissions).remove("allow");
                    if (permissions.isEmpty()) {
                        settings.remove("permissions");
                    }
                }
                return List.of("- permission " + MCP_RULE);
            }
        }
        return List.of();
    }

    static boolean allowsMcpTools(ObjectNode settings) {
        for (JsonNode rule : settings.path("permissions").path("allow")) {
            if (MCP_RULE.equals(rule.asText())) {
                return true;
            }
        }
        return false;
    }
}
