package dev.baton.agent.copilot;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.HookEvents;
import dev.baton.installer.agents.HookedAgent;
import dev.baton.installer.agents.InstallPlan;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.agents.UninstallPlan;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.config.PlannedEdit;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GitHub Copilot CLI: Baton's own hook file ({@link CopilotHooks}), written whole, and its MCP entry in the user's
 * {@code mcp-config.json}.
 */
public final class CopilotWiring extends HookedAgent {

    @Override
    public String name() {
        return "copilot";
    }

    @Override
    public String displayName() {
        return "Copilot CLI";
    }

    @Override
    public String description() {
        return "GitHub Copilot CLI.";
    }

    @Override
    public Path configDir(InstallLayout layout) {
        return directory(layout);
    }

    /** {@code COPILOT_HOME}, or {@code ~/.copilot}. */
    static Path directory(InstallLayout layout) {
        return layout.directoryFrom("COPILOT_HOME").orElse(layout.home().resolve(".copilot"));
    }

    /** Copilot CLI reads {@code mcp-config.json} with comments and trailing commas. */
    @Override
    public JsonSyntax syntax() {
        return JsonSyntax.COMMENTS_AND_TRAILING_COMMAS;
    }

    @Override
    public HookEvents events() {
        return CopilotHooks.HOOKS;
    }

    @Override
    public Optional<Path> hookFile(InstallLayout layout, Scope scope, Path project) {
        return scope == Scope.LOCAL ? Optional.empty() : Optional.of(CopilotHooks.file(layout, scope, project));
    }

    /** Copilot CLI has one MCP file, the user's; project and local installs leave it to the user-scope install. */
    @Override
    public List<McpRegistration.Placement> mcpPlacements(InstallLayout layout, Scope scope, Path project) {
        return scope != Scope.USER ? List.of() : List.of(new McpRegistration.Placement(
                sharedFile(directory(layout).resolve("mcp-config.json")), Optional.of("local"), true));
    }

    @Override
    protected void addHooks(InstallPlan plan, Path file) throws InstallerException {
        JsonConfigFile hooks = JsonConfigFile.owned(file);
        JsonConfigFile.Snapshot before = readLeniently(hooks);
        ObjectNode after = CopilotHooks.document(plan.layout().hookScript());
        List<String> changes = List.of((before.exists() ? "~ " : "+ ") + "hooks for "
                + String.join(", ", CopilotHooks.EVENTS.stream().map(HookEvents.EventHook::event).toList()));
        plan.json().add(new PlannedEdit(hooks, before, after, changes));
    }

    /** Baton's own hook file is rewritten whatever it holds; parsing it only serves to skip identical rewrites. */
    private static JsonConfigFile.Snapshot readLeniently(JsonConfigFile file) throws InstallerException {
        try {
            return file.read();
        } catch (InstallerException e) {
            return file.readUnparsed();
        }
    }

    @Override
    protected void removeHooks(UninstallPlan plan, Path file) throws InstallerException {
        JsonConfigFile hooks = JsonConfigFile.owned(file);
        JsonConfigFile.Snapshot before = hooks.readUnparsed();
        if (before.exists()) {
            plan.addDeletion(PlannedEdit.deletion(hooks, before, List.of("- Baton's hook file")));
        }
    }

    @Override
    protected List<String> missingEvents(ObjectNode tree) {
        return CopilotHooks.missingEvents(tree);
    }

    /** Copilot CLI denies a tool whose preToolUse hook errors on its own: there is no setting to check. */
    @Override
    protected List<String> eventsNotBlockingOnFailure(ObjectNode tree) {
        return List.of();
    }

    @Override
    protected Map<String, List<String>> commands(ObjectNode tree) {
        return CopilotHooks.commands(tree);
    }

    @Override
    protected String endEvent() {
        return "sessionEnd";
    }

    @Override
    public String edit(String session, Path cwd, Path file) {
        ObjectNode payload = start(session, cwd).put("toolName", "create");
        payload.putObject("toolArgs").put("path", file.toString()).put("file_text", "probe\n");
        return payload.toString();
    }

    @Override
    public String end(String session, Path cwd) {
        return start(session, cwd).put("reason", "complete").toString();
    }

    /** Copilot's camelCase payloads name no event: the hook command does. */
    private static ObjectNode start(String session, Path cwd) {
        return JsonText.MAPPER.createObjectNode().put("sessionId", session)
                .put("timestamp", Instant.now().toEpochMilli()).put("cwd", cwd.toString());
    }
}
