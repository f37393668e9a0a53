package dev.baton.agent.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.AgentChecks;
import dev.baton.installer.agents.HookEvents;
import dev.baton.installer.agents.HookEvents.EventHook;
import dev.baton.installer.agents.HookedAgent;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Gemini CLI: its hooks and its MCP entry in its {@code settings.json}, the user's or the project's. */
public final class GeminiWiring extends HookedAgent {

    public static final String TOOLS = "write_file|replace|run_shell_command";

    /** Timeouts in milliseconds; checked against Gemini CLI 0.61. */
    public static final HookEvents EVENTS = new HookEvents("gemini", List.of(
            new EventHook("BeforeTool", TOOLS, 30_000),
            new EventHook("AfterTool", TOOLS, 30_000),
            new EventHook("AfterAgent", null, 30_000),
            new EventHook("SessionStart", null, 30_000),
            new EventHook("SessionEnd", null, 30_000)));

    @Override
    public String name() {
        return "gemini";
    }

    @Override
    public String displayName() {
        return "Gemini CLI";
    }

    @Override
    public String description() {
        return "Gemini CLI.";
    }

    @Override
    public Path configDir(InstallLayout layout) {
        return layout.home().resolve(".gemini");
    }

    /** Gemini CLI strips comments (strip-json-comments) before {@code JSON.parse}, so a trailing comma still fails. */
    @Override
    public JsonSyntax syntax() {
        return JsonSyntax.COMMENTS;
    }

    @Override
    public HookEvents events() {
        return EVENTS;
    }

    @Override
    public Optional<Path> hookFile(InstallLayout layout, Scope scope, Path project) {
        return switch (scope) {
            case USER -> Optional.of(configDir(layout).resolve("settings.json"));
            case PROJECT -> Optional.of(project.resolve(".gemini/settings.json"));
            case LOCAL -> Optional.empty();
        };
    }

    /** Beside the hooks; Gemini CLI tells a stdio server by its command, so the entry has no type. */
    @Override
    public List<McpRegistration.Placement> mcpPlacements(InstallLayout layout, Scope scope, Path project) {
        return hookFile(layout, scope, project)
                .map(file -> List.of(new McpRegistration.Placement(sharedFile(file), Optional.empty(), false)))
                .orElse(List.of());
    }

    @Override
    public Optional<String> installNote(InstallLayout layout) {
        return Optional.of("note: Gemini CLI runs hooks only in a trusted folder: trust the project when Gemini asks, or"
                + " run `gemini` there and use /permissions, or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs.");
    }

    @Override
    public String edit(String session, Path cwd, Path file) {
        ObjectNode payload = HookProbe.hookPayload(session, cwd, "BeforeTool").put("timestamp", Instant.now().toString())
                .put("tool_name", "write_file");
        payload.putObject("tool_input").put("file_path", file.toString()).put("content", "probe\n");
        return payload.toString();
    }

    /** Gemini runs no hooks in a folder it does not trust. */
    @Override
    protected List<Check> trustChecks(AgentChecks doctor, List<AgentChecks.Installed> complete) {
        Path project = doctor.project();
        if ("true".equals(doctor.environment().get("GEMINI_CLI_TRUST_WORKSPACE"))) {
            return List.of(Check.ok("Gemini trust", "GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder"));
        }
        Path file = configDir(doctor.layout()).resolve("trustedFolders.json");
        try {
            if (Files.exists(file)) {
                ObjectNode folders = JsonText.parseObject(Files.readString(file), syntax());
                for (Iterator<Map.Entry<String, JsonNode>> it = folders.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> folder = it.next();
                    Path path = Path.of(folder.getKey());
                    String level = folder.getValue().asText();
                    if (level.equals("TRUST_FOLDER") && project.startsWith(path)
                            || level.equals("TRUST_PARENT") && path.getParent() != null && project.startsWith(path.getParent())) {
                        return List.of(Check.ok("Gemini trust", project + " is trusted (" + file + ")"));
                    }
                }
            }
        } catch (IOException | JsonText.InvalidJson e) {
            return List.of(Check.problem("Gemini trust", "cannot read " + file + ": " + e.getMessage(), "repair " + file));
        }
        return List.of(new Check(Status.SKIPPED, "Gemini trust", project + " is not a trusted folder: Gemini runs no"
                + " hooks in it headless. Trust it when Gemini asks (or /permissions), or set"
                + " GEMINI_CLI_TRUST_WORKSPACE=true", ""));
    }
}
