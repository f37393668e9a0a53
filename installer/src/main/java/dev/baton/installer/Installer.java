package dev.baton.installer;

import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.apparmor.ShellWrapperProfile;
import dev.baton.installer.apparmor.UsernsRestriction;
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
import java.nio.file.Path;
import java.util.Optional;

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
    private final Path systemRoot;

    public Installer(InstallLayout layout, HookScript script, ProgramSource program, PrintWriter out, PrintWriter err) {
        this(layout, script, program, out, err, Path.of("/"));
    }

    /** @param systemRoot where the kernel's files are read from ({@code /}; a directory of stand-ins in tests) */
    public Installer(InstallLayout layout, HookScript script, ProgramSource program, PrintWriter out, PrintWriter err,
            Path systemRoot) {
        this.layout = layout;
        this.systemRoot = systemRoot;
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
        Optional<Path> profile;
        try {
            if (!dryRun) {
                prepareHome();
            }
            new ProgramFiles(layout).install(script, program, dryRun).forEach(out::println);
            profile = writeAppArmorProfile(dryRun);
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
        profile.ifPresent(file -> out.println(ShellWrapperProfile.installNote(file)));
        out.flush();
        err.flush();
        return 0;
    }

    /**
     * Where AppArmor restricts user namespaces and no profile lets the wrapper make one, writes that profile beside the
     * wrapper, for the root step the install then prints; Baton itself never runs as root.
     */
    private Optional<Path> writeAppArmorProfile(boolean dryRun) throws IOException {
        UsernsRestriction userns = UsernsRestriction.read(systemRoot);
        if (!userns.restrictsUserns()) {
            return Optional.empty();
        }
        Path wrapper = layout.shellWrapper();
        String profile;
        try {
            profile = ShellWrapperProfile.text(wrapper);
        } catch (IllegalArgumentException e) {
            out.println("  skipped           AppArmor profile for the shell wrapper: " + e.getMessage());
            return Optional.empty();
        }
        if (!userns.needsProfile(profile)) {
            return Optional.empty();
        }
        out.println(ShellWrapperProfile.write(wrapper, dryRun));
        return Optional.of(ShellWrapperProfile.file(wrapper));
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
