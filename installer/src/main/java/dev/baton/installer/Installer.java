package dev.baton.installer;

import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.agents.InstallPlan;
import dev.baton.installer.agents.Target;
import dev.baton.installer.config.ConfigEdits;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.program.ProgramFiles;
import dev.baton.installer.program.ProgramSource;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * {@code baton install}: puts the program files in place, then merges Baton's hooks and MCP server into
 * the agents' configuration. Every file is read and checked before the first one is written.
 */
public final class Installer {

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

    /** Installs with the MCP server and Claude Code's permission rule for it. */
    public int install(Target target, boolean dryRun, boolean registerMcp) throws InstallerException {
        return install(target, dryRun, registerMcp, registerMcp);
    }

    /** Installs for the target and returns the exit code (0); refusals and write failures are thrown. */
    public int install(Target target, boolean dryRun, boolean registerMcp, boolean allowMcpTools) throws InstallerException {
        out.println((dryRun ? "Dry run, nothing is written. " : "") + "Installing Baton for "
                + target.describeAgents() + " at " + target.scope() + " scope"
                + (target.scope().isProjectBound() ? " in " + target.project() : "") + ".");
        InstallPlan plan = new InstallPlan(layout, target, registerMcp, allowMcpTools);
        for (AgentWiring.Stage stage : AgentWiring.Stage.values()) {
            for (AgentWiring agent : target.agents()) {
                agent.planInstall(stage, plan);
            }
        }
        try {
            if (!dryRun) {
                prepareHome();
            }
            new ProgramFiles(layout).install(script, program, dryRun).forEach(out::println);
            ConfigEdits.apply(plan.json().edits(), dryRun, out);
            for (InstallPlan.WholeFile file : plan.wholeFiles()) {
                out.println(file.write(dryRun));
            }
            for (TextConfigFile text : plan.texts()) {
                out.println(text.apply(dryRun));
            }
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        plan.skipped().forEach(out::println);
        printNotes(target);
        out.flush();
        err.flush();
        return 0;
    }

    /** BATON_HOME and its token, as the sidecar makes them (one code, in BatonHome), so both exist from install on. */
    private void prepareHome() throws InstallerException {
        try {
            layout.sidecarHome().ensureToken();
        } catch (IOException e) {
            throw new InstallerException("Cannot use " + layout.batonHome() + " as BATON_HOME: " + e.getMessage()
                    + ". Nothing was changed.", e);
        }
    }

    private void printNotes(Target target) {
        if (!layout.binDirOnPath()) {
            err.println("note: " + layout.binDir() + " is not on PATH. The hooks do not need it (they start the sidecar"
                    + " with " + layout.hookLauncher() + "), but to run `baton` yourself add this line to your shell"
                    + " profile: export PATH=\"" + layout.binDir() + ":$PATH\"");
        }
        for (AgentWiring agent : target.agents()) {
            agent.installNote(layout).ifPresent(out::println);
        }
    }
}
