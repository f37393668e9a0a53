package dev.baton.installer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code baton uninstall}: removes exactly what install added. A file the user did not touch in between
 * gets its original bytes back; a file Baton created and left empty is deleted.
 */
public final class Uninstaller {

    private final InstallLayout layout;
    private final PrintWriter out;

    public Uninstaller(InstallLayout layout, PrintWriter out) {
        this.layout = layout;
        this.out = out;
    }

    /**
     * Uninstalls for the target and returns the exit code (0).
     *
     * @param purge also delete the hook script, the program jar and the launchers
     */
    public int uninstall(Target target, boolean purge, boolean dryRun) throws InstallerException {
        out.println((dryRun ? "Dry run, nothing is written. " : "") + "Removing Baton from "
                + target.describeAgents() + " at " + target.scope() + " scope"
                + (target.scope().isProjectBound() ? " in " + target.project() : "") + ".");
        List<PlannedEdit> edits = new ArrayList<>();
        if (target.includes(Agent.CLAUDE)) {
            JsonConfigFile settings = JsonConfigFile.shared(ClaudeSettings.file(layout, target.scope(), target.project()));
            planRemoval(settings, ClaudeSettings::removeHooks).ifPresent(edits::add);
        }
        if (target.includes(Agent.COPILOT)) {
            JsonConfigFile hooks = JsonConfigFile.owned(CopilotHooks.file(layout, target.scope(), target.project()));
            JsonConfigFile.Snapshot before = hooks.readUnparsed();
            if (before.exists()) {
                edits.add(PlannedEdit.deletion(hooks, before, List.of("- Baton's hook file")));
            }
        }
        for (McpRegistration.Placement placement : McpRegistration.placements(layout, target)) {
            planRemoval(placement.file(), tree -> McpRegistration.remove(tree, placement)).ifPresent(edits::add);
        }
        try {
            ConfigEdits.apply(edits, dryRun, out);
            if (purge) {
                new ProgramFiles(layout).purge(dryRun).forEach(out::println);
            }
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        if (edits.stream().allMatch(PlannedEdit::isNoOp) && !purge) {
            out.println("Nothing to remove: no Baton entries found at " + target.scope() + " scope.");
        } else if (!purge) {
            out.println("Kept " + layout.launcher() + " and " + layout.hookScript() + "; add --purge to delete them too.");
        }
        out.flush();
        return 0;
    }

    private static Optional<PlannedEdit> planRemoval(JsonConfigFile file, Function<ObjectNode, List<String>> removal)
            throws InstallerException {
        JsonConfigFile.Snapshot before = file.read();
        if (!before.exists()) {
            return Optional.empty();
        }
        ObjectNode after = before.editableCopy();
        List<String> changes = removal.apply(after);
        // Left empty with no original to go back to: Baton created this file, so it goes away again.
        if (!changes.isEmpty() && after.isEmpty() && !file.hasBackup()) {
            return Optional.of(PlannedEdit.deletion(file, before, changes));
        }
        return Optional.of(new PlannedEdit(file, before, after, changes));
    }
}
