package dev.baton.agent.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.baton.installer.agents.McpRegistration;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Baton's tables in Codex's {@code config.toml}: hook trust entries and the MCP server. Edits are textual: each
 * of Baton's tables follows a marker comment and is appended or removed whole, so every other byte of the user's
 * file stays as it was (a TOML library would re-render the file). A table the user already has for the same hook
 * gets only its {@code trusted_hash} line changed.
 */
public final class CodexConfigToml {

    public static final String MARKER = "# Baton: written by `baton install`, removed by `baton uninstall`";
    private static final TomlMapper TOML = new TomlMapper();

    private CodexConfigToml() {
    }

    /** The text with Baton's trust entries for {@code hooksFile} replaced by {@code entries} (key → hash). */
    public static String withTrust(String text, String hooksFile, Map<String, String> entries) {
        String result = withoutBatonTables(text, "hooks.state.\"" + escape(hooksFile) + ":");
        for (Map.Entry<String, String> entry : entries.entrySet()) {
            String header = "[hooks.state.\"" + escape(entry.getKey()) + "\"]";
            String line = "trusted_hash = \"" + entry.getValue() + "\"";
            List<String> lines = new ArrayList<>(List.of(result.split("\n", -1)));
            int at = indexOfHeader(lines, header);
            if (at >= 0) {
                int end = tableEnd(lines, at);
                boolean replaced = false;
                for (int i = at + 1; i < end; i++) {
                    if (lines.get(i).strip().startsWith("trusted_hash")) {
                        lines.set(i, line);
                        replaced = true;
                    }
                }
                if (!replaced) {
                    lines.add(at + 1, line);
                }
                result = String.join("\n", lines);
            } else {
                result = append(result, header + "\n" + line + "\n");
            }
        }
        return result;
    }

    /**
     * The variables Codex passes on to Baton's MCP server, which it otherwise starts with a few basics (HOME, PATH,
     * USER, ...) only: those of the hook script, which finds BATON_HOME with them and starts the sidecar, and those
     * of the sidecar it may start, which takes its settings from them.
     */
    public static final List<String> MCP_VARIABLES = List.of("BATON_HOME", "XDG_STATE_HOME", "BATON", "CLAUDE_FILE_LOCK",
            "BATON_BIN", "BATON_HOOK_TIMEOUT", "BATON_HOOK_START_TIMEOUT", "JAVA_HOME", "BATON_JAVA_OPTS", "BATON_PORT",
            "BATON_HEARTBEAT_TTL", "BATON_DEADLOCK_POLICY", "BATON_DENIED_WAIT_SECONDS", "BATON_EVENT_RETENTION",
            "BATON_EVENT_CLIENT_QUEUE", "BATON_IGNORE", "BATON_LOCK_OUTSIDE_REPOS", "BATON_BRANCHES", "BATON_SHELL",
            "BATON_SHELL_AFTER_CHECK", "BATON_SHELL_ALLOW", "BATON_SHELL_DENY", "BATON_SHELL_GIT_TIMEOUT_MS",
            "BATON_SHELL_INDEX_WAIT_MS", "BATON_SHELL_ENFORCE", "BATON_SHELL_GUARD_MAX", "BATON_AUDIT_MAX_AGE",
            "BATON_AUDIT_MAX_ROWS", "BATON_TEAM_URL", "BATON_TEAM_SCOPE", "BATON_TEAM_MACHINE", "BATON_TEAM_TTL",
            "BATON_TEAM_STRICT", "BATON_VERSION_MAX_FILE", "BATON_VERSIONS_MAX_TOTAL", "BATON_VERSIONS_MAX_AGE");

    /**
     * Seconds Codex waits for Baton's MCP server to answer initialize (its default is 10): the server may be
     * starting the sidecar meanwhile, for up to its start budget of 20 s.
     */
    public static final int MCP_STARTUP_SECONDS = 30;

    /** The text with Baton's MCP server table: {@code mcpScript}, run as Codex's stdio server. */
    public static String withMcpServer(String text, String mcpScript) {
        String result = withoutBatonTables(text, "mcp_servers." + McpRegistration.SERVER + "]");
        StringBuilder variables = new StringBuilder();
        for (String name : MCP_VARIABLES) {
            variables.append(variables.length() == 0 ? "" : ", ").append('"').append(name).append('"');
        }
        return append(result, "[mcp_servers." + McpRegistration.SERVER + "]\ncommand = \"" + escape(mcpScript)
                + "\"\nargs = []\nenv_vars = [" + variables + "]\nstartup_timeout_sec = " + MCP_STARTUP_SECONDS + "\n");
    }

    /**
     * The text with BASH_ENV set to Baton's {@code bashEnv} for the commands Codex runs
     * ({@code [shell_environment_policy.set]}): bash then hands each command to Baton's shell wrapper. Unchanged
     * where the user set BASH_ENV there already, or wrote the policy's {@code set} as an inline table (which TOML
     * does not let another table extend); see {@link #shellEnvironmentConflict}.
     */
    public static String withShellEnvironment(String text, String bashEnv) throws IOException {
        String result = withoutShellEnvironment(text);
        if (shellEnvironmentConflict(result).isPresent()) {
            return result;
        }
        String line = "BASH_ENV = \"" + escape(bashEnv) + "\"";
        List<String> lines = new ArrayList<>(List.of(result.split("\n", -1)));
        int at = indexOfHeader(lines, SHELL_SET_TABLE);
        if (at >= 0) {
            lines.addAll(at + 1, List.of(MARKER, line));
            return String.join("\n", lines);
        }
        return append(result, SHELL_SET_TABLE + "\n" + line + "\n");
    }

    /** Why Baton cannot set BASH_ENV for Codex's commands in this text (Baton's own entry aside), if it cannot. */
    public static Optional<String> shellEnvironmentConflict(String text) throws IOException {
        text = withoutShellEnvironment(text);
        JsonNode tree = TOML.readTree(text);
        JsonNode set = tree == null ? null : tree.path("shell_environment_policy").get("set");
        if (set != null && set.has("BASH_ENV")) {
            return Optional.of("it sets BASH_ENV for Codex's commands itself (shell_environment_policy.set)");
        }
        List<String> lines = List.of(text.split("\n", -1));
        if (set != null && indexOfHeader(lines, SHELL_SET_TABLE) < 0) {
            return Optional.of("its shell_environment_policy.set is an inline table, which no other table may extend");
        }
        return Optional.empty();
    }

    public static String withoutShellEnvironment(String text) {
        String result = withoutBatonTables(text, "shell_environment_policy.set]");
        List<String> lines = new ArrayList<>(List.of(result.split("\n", -1)));
        for (int i = 0; i < lines.size() - 1; i++) {
            if (lines.get(i).equals(MARKER) && lines.get(i + 1).startsWith("BASH_ENV = ")) {
                lines.subList(i, i + 2).clear();
                i--;
            }
        }
        return String.join("\n", lines);
    }

    public static Optional<String> shellEnvironment(String text) throws IOException {
        JsonNode tree = TOML.readTree(text);
        JsonNode value = tree == null ? null : tree.path("shell_environment_policy").path("set").get("BASH_ENV");
        return Optional.ofNullable(value == null ? null : value.asText());
    }

    private static final String SHELL_SET_TABLE = "[shell_environment_policy.set]";

    public static String withoutMcpServer(String text) {
        return withoutBatonTables(text, "mcp_servers." + McpRegistration.SERVER + "]");
    }

    public static String withoutTrust(String text, String hooksFile) {
        return withoutBatonTables(text, "hooks.state.\"" + escape(hooksFile) + ":");
    }

    /** The trusted hash recorded for a key, read with a TOML parser; empty when none is recorded. */
    public static Optional<String> trustedHash(String text, String key) throws IOException {
        JsonNode tree = TOML.readTree(text);
        JsonNode hash = tree == null ? null : tree.path("hooks").path("state").path(key).get("trusted_hash");
        return hash == null ? Optional.empty() : Optional.of(hash.asText());
    }

    /** Checks that the text is TOML, so Baton never leaves Codex a file it cannot read. */
    public static void parse(String text) throws IOException {
        TOML.readTree(text);
    }

    public static Optional<JsonNode> mcpServer(String text) throws IOException {
        JsonNode tree = TOML.readTree(text);
        return Optional.ofNullable(tree == null ? null : tree.path("mcp_servers").get(McpRegistration.SERVER));
    }

    /** Removes each marker comment whose table header starts with {@code "[" + headerPrefix}, with its table. */
    private static String withoutBatonTables(String text, String headerPrefix) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        for (int i = 0; i < lines.size() - 1; i++) {
            if (lines.get(i).equals(MARKER) && lines.get(i + 1).startsWith("[" + headerPrefix)) {
                int end = tableEnd(lines, i + 1);
                lines.subList(i, end).clear();
                // the blank line append() put before the marker
                if (i > 0 && lines.get(i - 1).isEmpty() && (i == lines.size() || lines.get(i).isEmpty())) {
                    lines.remove(i - 1);
                }
                i--;
            }
        }
        return String.join("\n", lines);
    }

    private static String append(String text, String table) {
        String base = text.isEmpty() || text.endsWith("\n") ? text : text + "\n";
        return base + (base.isEmpty() ? "" : "\n") + MARKER + "\n" + table;
    }

    private static int indexOfHeader(List<String> lines, String header) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(header)) {
                return i;
            }
        }
        return -1;
    }

    /** The index just past a table's last line: the next header, the next marker, or the end. */
    private static int tableEnd(List<String> lines, int header) {
        int end = header + 1;
        while (end < lines.size() && !lines.get(end).stripLeading().startsWith("[") && !lines.get(end).equals(MARKER)) {
            end++;
        }
        // trailing blank lines (and the file's final newline) belong to what follows, not to this table
        while (end > header + 1 && lines.get(end - 1).isEmpty()) {
            end--;
        }
        return end;
    }

    /** Escapes for a TOML basic string. */
    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
