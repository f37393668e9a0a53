package dev.baton.installer;

import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.apparmor.ShellWrapperProfile;
import dev.baton.installer.apparmor.UsernsRestriction;
import dev.baton.installer.agents.Target;
import dev.baton.installer.agents.UninstallPlan;
import dev.baton.installer.config.ConfigEdits;
import dev.baton.installer.config.EmptyParents;
import dev.baton.installer.config.FileStep;
import dev.baton.installer.config.PlannedEdit;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.program.ProgramFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
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
    private final Path systemRoot;

    public Uninstaller(InstallLayout layout, PrintWriter out) {
        this(layout, out, Path.of("/"));
    }

    /** @param systemRoot where the kernel's files are read from ({@code /}; a directory of stand-ins in tests) */
    public Uninstaller(InstallLayout layout, PrintWriter out, Path systemRoot) {
        this.layout = layout;
        this.out = out;
        this.systemRoot = systemRoot;
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
        UninstallPlan plan = new UninstallPlan(layout, target);
        for (AgentWiring.Stage stage : AgentWiring.Stage.values()) {
            for (AgentWiring agent : target.agents()) {
                agent.planUninstall(stage, plan);
            }
        }
        List<PlannedEdit> edits = new ArrayList<>(plan.json().removals());
        edits.addAll(plan.deletions());
        boolean ownedFilesFound = plan.ownedFiles().stream().anyMatch(file -> Files.exists(file.file()));
        try {
            List<Path> deleted = new ArrayList<>(ConfigEdits.apply(edits, dryRun, true, out));
            for (UninstallPlan.OwnedFile file : plan.ownedFiles()) {
                Optional<FileStep> step = file.deletion().delete(file.file(), dryRun);
                step.ifPresent(out::println);
                if (step.isPresent() && !dryRun) {
                    deleted.add(file.file());
                }
            }
            for (TextConfigFile text : plan.texts()) {
                FileStep step = text.applyRemoval(dryRun);
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
                // Before the program files, so the directory they leave empty goes with them.
                ShellWrapperProfile.delete(layout.shellWrapper(), dryRun).ifPresent(out::println);
                new ProgramFiles(layout).purge(dryRun).forEach(out::println);
            }
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        boolean nothing = edits.stream().allMatch(PlannedEdit::isNoOp) && plan.texts().stream().allMatch(TextConfigFile::isNoOp)
                && !ownedFilesFound;
        if (nothing && !purge) {
            out.println("Nothing to remove: no Baton entries found at " + target.scope() + " scope.");
        } else if (!purge) {
            out.println("Kept " + layout.launcher() + " and " + layout.hookScript() + "; add --purge to delete them too.");
        }
        if (purge && UsernsRestriction.read(systemRoot).hasProfile()) {
            // Loading and unloading a profile needs root: the user does it, as they did the install's step.
            out.println(ShellWrapperProfile.uninstallNote());
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
}
