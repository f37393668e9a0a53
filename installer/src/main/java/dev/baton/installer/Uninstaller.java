package dev.baton.installer;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.nio.file.Path;

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
        JsonEdits json = new JsonEdits();
        List<PlannedEdit> deletions = new ArrayList<>();
        for (Agent agent : target.agents()) {
            Optional<Path> file = AgentFiles.hookFile(layout, agent, target.scope(), target.project());
            if (file.isEmpty()) {
                continue;
            }
            if (agent == Agent.COPILOT) {
                JsonConfigFile hooks = JsonConfigFile.owned(file.get());
                JsonConfigFile.Snapshot before = hooks.readUnparsed();
                if (before.exists()) {
                    deletions.add(PlannedEdit.deletion(hooks, before, List.of("- Baton's hook file")));
                }
            } else {
                json.planRemoval(JsonConfigFile.shared(file.get(), agent), GroupedHooks::removeHooks);
            }
        }
        if (target.includes(Agent.CLAUDE)) {
            json.planRemoval(JsonConfigFile.shared(ClaudeSettings.file(layout, target.scope(), target.project()), Agent.CLAUDE),
                    ClaudeSettings::removeMcpRule);
        }
        for (McpRegistration.Placement placement : McpRegistration.placements(layout, target)) {
            json.planRemoval(placement.file(), tree -> McpRegistration.remove(tree, placement));
        }
        List<PlannedEdit> edits = new ArrayList<>(json.removals());
        edits.addAll(deletions);
        Optional<TextConfigFile> codexConfig = target.includes(Agent.CODEX) ? planCodexConfig(target) : Optional.empty();
        try {
            List<Path> deleted = new ArrayList<>(ConfigEdits.apply(edits, dryRun, true, out));
            if (codexConfig.isPresent()) {
                FileStep step = codexConfig.get().applyRemoval(dryRun);
                out.println(step);
                if (step.verb().equals("deleted")) {
                    deleted.add(step.path());
                }
            }
            for (Path file : deleted) {
                EmptyParents.remove(file, List.of(layout.home(), target.project())).forEach(out::println);
            }
            if (purge) {
                new ProgramFiles(layout).purge(dryRun).forEach(out::println);
            }
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        boolean nothing = edits.stream().allMatch(PlannedEdit::isNoOp) && codexConfig.map(TextConfigFile::isNoOp).orElse(true);
        if (nothing && !purge) {
            out.println("Nothing to remove: no Baton entries found at " + target.scope() + " scope.");
        } else if (!purge) {
            out.println("Kept " + layout.launcher() + " and " + layout.hookScript() + "; add --purge to delete them too.");
        }
        out.flush();
        return 0;
    }

    /** Removes Baton's trust entries for this scope's hooks file (and, at user scope, its MCP server). */
    private Optional<TextConfigFile> planCodexConfig(Target target) throws InstallerException {
        Path config = AgentFiles.codexConfig(layout);
        byte[] before = TextConfigFile.read(config);
        if (before == null) {
            return Optional.empty();
        }
        Optional<Path> hooksFile = AgentFiles.hookFile(layout, Agent.CODEX, target.scope(), target.project());
        String after = TextConfigFile.text(before);
        List<String> changes = new ArrayList<>();
        if (hooksFile.isPresent()) {
            String removed = CodexConfigToml.withoutTrust(after, hooksFile.get().toAbsolutePath().normalize().toString());
            if (!removed.equals(after)) {
                changes.add("- trust for Baton's hooks in " + hooksFile.get().getFileName());
            }
            after = removed;
        }
        if (target.scope() == Scope.USER) {
            String removed = CodexConfigToml.withoutMcpServer(after);
            if (!removed.equals(after)) {
                changes.add("- MCP server " + McpRegistration.SERVER);
            }
            after = removed;
        }
        return Optional.of(new TextConfigFile(config, before, after, changes, false));
    }
}
