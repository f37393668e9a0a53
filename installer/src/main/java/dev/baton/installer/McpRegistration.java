package dev.baton.installer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Baton's MCP server entry, {@code mcpServers.baton}, in the agents' JSON MCP configuration (Codex's is TOML, see
 * {@link CodexConfigToml}). The token never lands in a file others can read: Claude Code fetches it with a
 * {@code headersHelper} command that reads the token file; files that are likely committed get a
 * {@code ${BATON_TOKEN}} reference the agent expands; the rest are owner-only files.
 */
final class McpRegistration {

    static final String SERVER = "baton";
    static final String TOKEN_REFERENCE = "${BATON_TOKEN}";

    /**
     * Where one entry goes: a file, the keys leading from its root to the object that holds
     * {@code mcpServers}, and whether the file is private enough to hold the token itself.
     */
    record Placement(Agent agent, JsonConfigFile file, List<String> path, boolean holdsSecret) {

        String describe() {
            List<String> keys = new ArrayList<>(path);
            keys.add("mcpServers");
            keys.add(SERVER);
            return String.join(".", keys);
        }
    }

    private McpRegistration() {
    }

    static List<Placement> placements(InstallLayout layout, Target target) {
        List<Placement> placements = new ArrayList<>();
        if (target.includes(Agent.CLAUDE)) {
            placements.add(claude(layout, target));
        }
        // Copilot CLI has one MCP file, the user's; project and local installs leave it to the user-scope install.
        if (target.includes(Agent.COPILOT) && target.scope() == Scope.USER) {
            placements.add(new Placement(Agent.COPILOT,
                    JsonConfigFile.secret(layout.copilotDir().resolve("mcp-config.json")), List.of(), true));
        }
        if (target.includes(Agent.GEMINI) && target.scope() != Scope.LOCAL) {
            boolean user = target.scope() == Scope.USER;
            Path file = AgentFiles.hookFile(layout, Agent.GEMINI, target.scope(), target.project()).orElseThrow();
            placements.add(new Placement(Agent.GEMINI,
                    user ? JsonConfigFile.secret(file) : JsonConfigFile.shared(file), List.of(), user));
        }
        return placements;
    }

    static Placement claude(InstallLayout layout, Target target) {
        return switch (target.scope()) {
            case USER -> new Placement(Agent.CLAUDE, JsonConfigFile.secret(layout.claudeJson()), List.of(), true);
            case PROJECT -> new Placement(Agent.CLAUDE,
                    JsonConfigFile.shared(target.project().resolve(".mcp.json")), List.of(), false);
            // Claude Code keeps local-scope servers in ~/.claude.json under the project's absolute path.
            case LOCAL -> new Placement(Agent.CLAUDE, JsonConfigFile.secret(layout.claudeJson()),
                    List.of("projects", target.project().toString()), true);
        };
    }

    /**
     * The entry for a placement; {@code tokenFile} is where Claude Code's header helper reads the token, after it
     * made sure with {@code hookScript} that a sidecar answers.
     */
    static ObjectNode entry(Placement placement, SidecarEndpoint endpoint, String token, Path hookScript, Path tokenFile) {
        ObjectNode entry = JsonText.MAPPER.createObjectNode();
        String authorization = "Bearer " + (placement.holdsSecret() ? token : TOKEN_REFERENCE);
        switch (placement.agent()) {
            case CLAUDE -> {
                entry.put("type", "http");
                entry.put("url", endpoint.mcpUrl());
                if (placement.holdsSecret()) {
                    entry.put("headersHelper", headersHelper(hookScript, tokenFile));
                } else {
                    entry.putObject("headers").put("Authorization", authorization);
                }
            }
            case COPILOT -> {
                entry.put("type", "http");
                entry.put("url", endpoint.mcpUrl());
                entry.putObject("headers").put("Authorization", authorization);
                entry.putArray("tools").add("*");
            }
            case GEMINI -> {
                entry.put("httpUrl", endpoint.mcpUrl());
                entry.putObject("headers").put("Authorization", authorization);
            }
            case CODEX -> throw new IllegalArgumentException("Codex's MCP entry is TOML");
        }
        return entry;
    }

    /**
     * A shell command printing the headers as JSON, reading the token when Claude Code connects. It first runs the
     * hook's {@code Ready}, which starts a sidecar that is not running and waits for it: at a session's start Claude
     * Code connects to its MCP servers while the SessionStart hook is still starting the sidecar, and a server that
     * refuses the connection has no tools for the whole session. Claude Code gives the helper 10 s, so the wait is
     * bounded at {@value #READY_SECONDS} s; its output goes nowhere, the headers alone are printed.
     */
    static String headersHelper(Path hookScript, Path tokenFile) {
        return "BATON_HOOK_TIMEOUT=" + READY_SECONDS + " BATON_HOOK_START_TIMEOUT=" + READY_SECONDS + " "
                + HookCommand.line(hookScript, "claude", HookScript.READY_EVENT) + " </dev/null >/dev/null 2>&1; "
                + "printf '{\"Authorization\":\"Bearer %s\"}' \"$(cat " + HookCommand.shellWord(tokenFile.toString()) + ")\"";
    }

    /** How long Claude Code's headers helper waits for a sidecar to start: under the 10 s Claude Code allows it. */
    static final int READY_SECONDS = 8;

    /** Sets the entry, keeping its position when one is already there; returns what changed. */
    static List<String> add(ObjectNode root, Placement placement, ObjectNode entry) {
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
    static List<String> remove(ObjectNode root, Placement placement) {
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

    static Optional<JsonNode> find(ObjectNode root, Placement placement) {
        JsonNode node = root;
        for (String step : placement.path()) {
            node = node.path(step);
        }
        JsonNode entry = node.path("mcpServers").get(SERVER);
        return Optional.ofNullable(entry);
    }
}
