package dev.baton.agent.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonTrees;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Claude Code's settings files: the permission rule that lets Claude Code call Baton's MCP tools unasked, and the
 * shell prefix that runs every command of its Bash tool through Baton's wrapper.
 */
public final class ClaudeSettings {

    /** Every tool of the {@code baton} MCP server; without it Claude Code refuses them in {@code -p} mode. */
    public static final String MCP_RULE = "mcp__" + McpRegistration.SERVER + "__*";

    /**
     * The variable (in {@code env}) whose command Claude Code runs each Bash command through, given the command line
     * as one argument. Claude Code also runs shell-form hooks and stdio MCP servers through it; the wrapper starts
     * Baton's own at once.
     */
    public static final String SHELL_PREFIX = "CLAUDE_CODE_SHELL_PREFIX";

    /** Where a prefix the user had is kept while Baton's takes its place: the wrapper runs commands through it. */
    public static final String NEXT_SHELL_PREFIX = "BATON_NEXT_SHELL_PREFIX";

    /**
     * Baton's prefix: the shell wrapper beside the hook script. A program alone, no argument: Claude Code starts the
     * prefix of its stdio MCP servers as one executable path.
     */
    public static String shellPrefix(Path hookScript) {
        return hookScript.toAbsolutePath().resolveSibling(HookScript.SHELL_WRAPPER).toString();
    }

    /** Sets Baton's shell prefix, keeping a prefix of the user's as the one Baton's wrapper runs commands through. */
    public static List<String> setShellPrefix(ObjectNode settings, Path hookScript) {
        ObjectNode env = JsonTrees.objectAt(settings, "env", "env");
        String ours = shellPrefix(hookScript);
        JsonNode current = env.get(SHELL_PREFIX);
        if (current != null && ours.equals(current.asText())) {
            return List.of();
        }
        if (current != null && current.isTextual() && !current.asText().isBlank() && !isBatons(current.asText())) {
            env.put(NEXT_SHELL_PREFIX, current.asText());
        }
        env.put(SHELL_PREFIX, ours);
        return List.of("+ env " + SHELL_PREFIX + " (every Bash command through Baton's shell wrapper)");
    }

    /** Removes Baton's shell prefix, giving back the user's own where one was kept, and an {@code env} left empty. */
    public static List<String> removeShellPrefix(ObjectNode settings) {
        JsonNode env = settings.get("env");
        if (env == null || !env.isObject() || !isBatons(env.path(SHELL_PREFIX).asText(""))) {
            return List.of();
        }
        ObjectNode variables = (ObjectNode) env;
        JsonNode kept = variables.remove(NEXT_SHELL_PREFIX);
        if (kept != null) {
            variables.set(SHELL_PREFIX, kept);
        } else {
            variables.remove(SHELL_PREFIX);
        }
        if (variables.isEmpty()) {
            settings.remove("env");
        }
        return List.of("- env " + SHELL_PREFIX);
    }

    /** The shell prefix the settings set, if any. */
    public static Optional<String> shellPrefixOf(ObjectNode settings) {
        JsonNode prefix = settings.path("env").path(SHELL_PREFIX);
        return prefix.isTextual() && !prefix.asText().isBlank() ? Optional.of(prefix.asText()) : Optional.empty();
    }

    public static boolean hasShellPrefix(ObjectNode settings, Path hookScript) {
        return shellPrefix(hookScript).equals(settings.path("env").path(SHELL_PREFIX).asText(null));
    }

    /** Baton's prefix, or the {@code baton-hook --shell} an earlier install wrote. */
    private static boolean isBatons(String prefix) {
        return prefix.endsWith("/" + HookScript.SHELL_WRAPPER)
                || prefix.contains(HookCommand.MARKER) && prefix.endsWith(" " + HookScript.SHELL_OPTION);
    }

    private ClaudeSettings() {
    }

    public static Path file(InstallLayout layout, Scope scope, Path project) {
        return switch (scope) {
            case USER -> ClaudeCodeWiring.directory(layout).resolve("settings.json");
            case PROJECT -> project.resolve(".claude/settings.json");
            case LOCAL -> project.resolve(".claude/settings.local.json");
        };
    }

    /** Adds {@link #MCP_RULE} to {@code permissions.allow} unless it is there. */
    public static List<String> allowMcpTools(ObjectNode settings) {
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
    public static List<String> removeMcpRule(ObjectNode settings) {
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

    public static boolean allowsMcpTools(ObjectNode settings) {
        for (JsonNode rule : settings.path("permissions").path("allow")) {
            if (MCP_RULE.equals(rule.asText())) {
                return true;
            }
        }
        return false;
    }
}
