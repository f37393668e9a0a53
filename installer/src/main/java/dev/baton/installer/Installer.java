package dev.baton.installer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.home.BatonHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code baton install}: puts the program files in place, then merges Baton's hooks and MCP server into
 * the agents' configuration. Every file is read and checked before the first one is written.
 */
public final class Installer {

    private static final String PENDING_TOKEN = "(token created on install)";

    private final InstallLayout layout;
    private final HookScript script;
    private final ProgramSource program;
    private final PrintWriter out;
    private final PrintWriter err;

    public Installer(InstallLayout layout, HookScript script, ProgramSource program, PrintWriter out, PrintWriter err) {
        this.layout = layout;
        this.script = script;
        this.program = program;
        this.out = out;
        this.err = err;
    }

    /** Installs for the target and returns the exit code (0); refusals and write failures are thrown. */
    public int install(Target target, boolean dryRun, boolean registerMcp) throws InstallerException {
        out.println((dryRun ? "Dry run, nothing is written. " : "") + "Installing Baton for "
                + target.describeAgents() + " at " + target.scope() + " scope"
                + (target.scope().isProjectBound() ? " in " + target.project() : "") + ".");
        List<PlannedEdit> edits = planHooks(target);
        if (registerMcp) {
            edits.addAll(planMcp(target, dryRun));
        }
        try {
            new ProgramFiles(layout).install(script, program, dryRun).forEach(out::println);
            ConfigEdits.apply(edits, dryRun, out);
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        printNotes(target, registerMcp);
        out.flush();
        err.flush();
        return 0;
    }

    private List<PlannedEdit> planHooks(Target target) throws InstallerException {
        List<PlannedEdit> edits = new ArrayList<>();
        if (target.includes(Agent.CLAUDE)) {
            JsonConfigFile settings = JsonConfigFile.shared(ClaudeSettings.file(layout, target.scope(), target.project()));
            JsonConfigFile.Snapshot before = settings.read();
            ObjectNode after = before.editableCopy();
            List<String> changes = ConfigEdits.guardShape(settings, () -> ClaudeSettings.addHooks(after, layout.hookScript()));
            edits.add(new PlannedEdit(settings, before, after, changes));
        }
        if (target.includes(Agent.COPILOT)) {
            JsonConfigFile hooks = JsonConfigFile.owned(CopilotHooks.file(layout, target.scope(), target.project()));
            JsonConfigFile.Snapshot before = readLeniently(hooks);
            ObjectNode after = CopilotHooks.document(layout.hookScript());
            List<String> changes = List.of((before.exists() ? "~ " : "+ ") + "hooks for "
                    + String.join(", ", CopilotHooks.EVENTS.stream().map(CopilotHooks.EventHook::key).toList()));
            edits.add(new PlannedEdit(hooks, before, after, changes));
        }
        return edits;
    }

    /** Baton's own hook file is rewritten whatever it holds; parsing it only serves to skip identical rewrites. */
    private static JsonConfigFile.Snapshot readLeniently(JsonConfigFile file) throws InstallerException {
        try {
            return file.read();
        } catch (InstallerException e) {
            return file.readUnparsed();
        }
    }

    private List<PlannedEdit> planMcp(Target target, boolean dryRun) throws InstallerException {
        List<McpRegistration.Placement> placements = McpRegistration.placements(layout, target);
        List<JsonConfigFile.Snapshot> snapshots = new ArrayList<>();
        for (McpRegistration.Placement placement : placements) {
            snapshots.add(placement.file().read());
        }
        SidecarEndpoint endpoint = SidecarEndpoint.configured(layout);
        String token = token(dryRun);
        List<PlannedEdit> edits = new ArrayList<>();
        for (int i = 0; i < placements.size(); i++) {
            McpRegistration.Placement placement = placements.get(i);
            ObjectNode after = snapshots.get(i).editableCopy();
            ObjectNode entry = McpRegistration.entry(placement, endpoint, token);
            List<String> changes = ConfigEdits.guardShape(placement.file(), () -> McpRegistration.add(after, placement, entry));
            edits.add(new PlannedEdit(placement.file(), snapshots.get(i), after, changes));
        }
        return edits;
    }

    private String token(boolean dryRun) throws InstallerException {
        BatonHome home = layout.sidecarHome();
        try {
            return dryRun ? home.readToken().orElse(PENDING_TOKEN) : home.ensureToken();
        } catch (IOException e) {
            throw new InstallerException("Cannot read or create the sidecar token " + home.tokenFile() + ": "
                    + e.getMessage() + ". Check that " + layout.batonHome() + " is yours and writable.", e);
        }
    }

    private void printNotes(Target target, boolean registerMcp) {
        if (!layout.binDirOnPath()) {
            err.println("warning: " + layout.binDir() + " is not on PATH. The hooks do not need it, but to run `baton`"
                    + " yourself add this line to your shell profile: export PATH=\"" + layout.binDir() + ":$PATH\"");
        }
        if (registerMcp && target.includes(Agent.CLAUDE) && target.scope() == Scope.PROJECT) {
            out.println("note: " + target.project().resolve(".mcp.json") + " refers to " + McpRegistration.TOKEN_REFERENCE
                    + " so the secret stays out of the repository; start Claude Code from a shell where"
                    + " BATON_TOKEN=\"$(cat " + layout.tokenFile() + ")\" is exported.");
        }
    }
}
