package dev.baton.installer;

import dev.baton.installer.agents.AgentFiles;
import dev.baton.installer.agents.ClaudeSettings;
import dev.baton.installer.agents.CodexConfigToml;
import dev.baton.installer.agents.GroupedHooks;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.agents.OpenCodeConfig;
import dev.baton.installer.agents.OpenCodePlugin;
import dev.baton.installer.config.ConfigEdits;
import dev.baton.installer.config.EmptyParents;
import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonEdits;
import dev.baton.installer.config.PlannedEdit;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.Agent;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.layout.Target;
import dev.baton.installer.program.ProgramFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code baton uninstall}: removes exactly what install added. A file the user did not touch in between
 * gets its original bytes back; a file Baton created and left empty is deleted.
 */
public final class Uninstaller {

    private static final long STOP_SECONDS = 30;

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
        List<Path> plugins = new ArrayList<>();
        for (Agent agent : target.agents()) {
            Optional<Path> file = AgentFiles.hookFile(layout, agent, target.scope(), target.project());
            if (file.isEmpty()) {
                continue;
            }
            if (agent == Agent.OPENCODE) {
                OpenCodePlugin.of(file.get(), layout.hookScript()).current(); // a file of the user's is refused
                plugins.add(file.get());
            } else if (agent == Agent.COPILOT) {
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
            json.planRemoval(JsonConfigFile.shared(ClaudeSettings.file(layout, target.scope(), target.project()), Agent.CLAUDE),
                    ClaudeSettings::removeShellPrefix);
        }
        for (McpRegistration.Placement placement : McpRegistration.placements(layout, target)) {
            json.planRemoval(placement.file(), tree -> McpRegistration.remove(tree, placement));
        }
        Optional<JsonConfigFile> opencode = OpenCodeConfig.file(layout, target.scope(), target.project());
        if (target.includes(Agent.OPENCODE) && opencode.isPresent()) {
            json.planRemoval(opencode.get(), OpenCodeConfig::removeMcp);
        }
        List<PlannedEdit> edits = new ArrayList<>(json.removals());
        edits.addAll(deletions);
        Optional<TextConfigFile> codexConfig = target.includes(Agent.CODEX) ? planCodexConfig(target) : Optional.empty();
        boolean pluginsFound = plugins.stream().anyMatch(java.nio.file.Files::exists);
        try {
            List<Path> deleted = new ArrayList<>(ConfigEdits.apply(edits, dryRun, true, out));
            for (Path plugin : plugins) {
                Optional<FileStep> step = OpenCodePlugin.delete(plugin, dryRun);
                step.ifPresent(out::println);
                if (step.isPresent() && !dryRun) {
                    deleted.add(plugin);
                }
            }
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
                stopSidecarRunningFromTheProgram(dryRun);
                new ProgramFiles(layout).purge(dryRun).forEach(out::println);
            }
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        boolean nothing = edits.stream().allMatch(PlannedEdit::isNoOp) && codexConfig.map(TextConfigFile::isNoOp).orElse(true)
                && !pluginsFound;
        if (nothing && !purge) {
            out.println("Nothing to remove: no Baton entries found at " + target.scope() + " scope.");
        } else if (!purge) {
            out.println("Kept " + layout.launcher() + " and " + layout.hookScript() + "; add --purge to delete them too.");
        }
        out.flush();
        return 0;
    }

    /**
     * A sidecar that runs the installed program would run on from deleted files, unseen: it is stopped first, as
     * {@code baton stop} stops it. One started from elsewhere (a checkout's build) is left alone.
     */
    private void stopSidecarRunningFromTheProgram(boolean dryRun) throws InstallerException {
        try {
            Optional<ProcessHandle> sidecar = layout.sidecarHome().runningSidecar();
            String program = layout.installedJar().toString();
            if (sidecar.isEmpty() || !sidecar.get().info().arguments().map(List::of).orElse(List.of()).contains(program)) {
                return;
            }
            long pid = sidecar.get().pid();
            if (!dryRun) {
                sidecar.get().destroy();
                sidecar.get().onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
            }
            out.println(new FileStep(dryRun ? "would stop" : "stopped", layout.batonHome(), "its sidecar, pid " + pid
                    + ", which runs the program files deleted below; locks stay in the database"));
        } catch (TimeoutException e) {
            throw new InstallerException("The sidecar of " + layout.batonHome() + " is still running " + STOP_SECONDS
                    + " s after it was asked to stop; stop it (baton stop) and run the command again. The program files"
                    + " were kept.", e);
        } catch (IOException | ExecutionException e) {
            throw new InstallerException("Cannot stop the sidecar of " + layout.batonHome() + ": " + e.getMessage()
                    + ". Stop it (baton stop) and run the command again; the program files were kept.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InstallerException("Interrupted while stopping the sidecar; the program files were kept.", e);
        }
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
            removed = CodexConfigToml.withoutShellEnvironment(after);
            if (!removed.equals(after)) {
                changes.add("- BASH_ENV for Codex's shell commands");
            }
            after = removed;
        }
        return Optional.of(new TextConfigFile(config, before, after, changes, false));
    }
}
