package dev.baton.installer.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An agent that runs Baton's hook commands from a JSON file of hooks, with its MCP entry in JSON files: what such
 * agents share in install, uninstall and the doctor's checks. An agent overrides what it does its own way.
 */
public abstract class HookedAgent implements AgentWiring, HookProbe.Payloads {

    /** The events Baton hooks, in the order they are written; the first is the one before an edit. */
    public abstract HookEvents events();

    /** Where Baton's MCP entries go at a scope, in the agent's JSON files; none unless the agent has such a file. */
    public List<McpRegistration.Placement> mcpPlacements(InstallLayout layout, Scope scope, Path project) {
        return List.of();
    }

    @Override
    public void planInstall(Stage stage, InstallPlan plan) throws InstallerException {
        switch (stage) {
            case HOOKS -> {
                Optional<Path> file = hookFile(plan.layout(), plan.scope(), plan.project());
                if (file.isEmpty()) {
                    plan.skip(displayName() + " has no " + plan.scope() + " scope; install it with --scope user or"
                            + " --scope project");
                } else {
                    addHooks(plan, file.get());
                }
            }
            case MCP -> {
                if (plan.registerMcp()) {
                    for (McpRegistration.Placement placement : mcpPlacements(plan.layout(), plan.scope(), plan.project())) {
                        ObjectNode entry = McpRegistration.entry(placement, plan.layout().mcpScript());
                        plan.json().plan(placement.file(), tree -> McpRegistration.add(tree, placement, entry));
                    }
                }
            }
            case SETTINGS, CONFIG -> { }
        }
    }

    @Override
    public void planUninstall(Stage stage, UninstallPlan plan) throws InstallerException {
        switch (stage) {
            case HOOKS -> {
                Optional<Path> file = hookFile(plan.layout(), plan.scope(), plan.project());
                if (file.isPresent()) {
                    removeHooks(plan, file.get());
                }
            }
            case MCP -> {
                for (McpRegistration.Placement placement : mcpPlacements(plan.layout(), plan.scope(), plan.project())) {
                    plan.json().planRemoval(placement.file(), tree -> McpRegistration.remove(tree, placement));
                }
            }
            case SETTINGS, CONFIG -> { }
        }
    }

    /** Adds Baton's hooks to the agent's file of hooks, grouped by event and matcher. */
    protected void addHooks(InstallPlan plan, Path file) throws InstallerException {
        plan.json().plan(sharedFile(file), tree -> GroupedHooks.addHooks(tree, events(), plan.layout().hookScript()));
    }

    protected void removeHooks(UninstallPlan plan, Path file) throws InstallerException {
        plan.json().planRemoval(sharedFile(file), GroupedHooks::removeHooks);
    }

    @Override
    public List<Check> diagnose(AgentChecks doctor) {
        return doctor.hooked(this);
    }

    /** The events of {@link #events()} the file holds no Baton hook for. */
    protected List<String> missingEvents(ObjectNode tree) {
        return GroupedHooks.missingEvents(tree, events());
    }

    /** The events whose Baton hook should block its tool call when it fails, and does not. */
    protected List<String> eventsNotBlockingOnFailure(ObjectNode tree) {
        return GroupedHooks.eventsNotBlockingOnFailure(tree, events());
    }

    /** Baton's hook commands in the file, by event, in file order. */
    protected Map<String, List<String>> commands(ObjectNode tree) {
        return GroupedHooks.commands(tree);
    }

    /** The event whose hook ends a session. */
    protected String endEvent() {
        return "SessionEnd";
    }

    /** Whether the agent runs the hooks in these files, where it asks the user to trust them. */
    protected List<Check> trustChecks(AgentChecks doctor, List<AgentChecks.Installed> complete) {
        return List.of();
    }

    /** Baton's MCP entry as the agent keeps it. */
    protected AgentChecks.McpEntry mcpEntry(AgentChecks doctor) {
        return doctor.jsonMcpEntry(this);
    }

    /** The command line the agent starts an MCP server entry's command with. */
    protected List<String> mcpCommand(List<AgentChecks.Installed> installed, List<String> command) {
        return command;
    }

    /** Whether the agent passes an environment variable of its own on to the MCP servers it starts. */
    protected boolean passesToMcp(String variable) {
        return true;
    }

    /** Checks of the agent's other settings Baton makes, in the files holding its hooks. */
    protected List<Check> settingsChecks(List<AgentChecks.Installed> installed) {
        return List.of();
    }

    /**
     * Whether the agent's shell commands pass through Baton's wrapper, given the file holding all of Baton's hooks
     * for it (the first scope found), or empty when it cannot be told.
     */
    protected Optional<Check> shellCheck(InstallLayout layout, Optional<ObjectNode> hooksTree) {
        return Optional.of(ShellWrapperChecks.throughHook(this));
    }
}
