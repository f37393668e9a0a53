package dev.baton.installer;

import dev.baton.agent.AgentWirings;
import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.agents.Target;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.program.ProgramSource;
import dev.baton.installer.service.UserService;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton install}: wires Baton's hooks and MCP server into Claude Code, Copilot CLI, Codex CLI and Gemini CLI, and
 * its plug-in and MCP server into OpenCode.
 */
@Command(name = "install", modelTransformer = AgentOptions.AgentFlags.class,
        description = "Install Baton's hook script and launcher, and add its hooks and MCP server to the agents' config.")
public final class InstallCommand implements Callable<Integer> {

    @Spec
    public CommandSpec spec;

    @Mixin
    public AgentOptions agents;

    @Option(names = "--dry-run", description = "Print what would change and write nothing.")
    public boolean dryRun;

    @Option(names = "--no-mcp", description = "Do not register Baton's MCP server.")
    public boolean noMcp;

    @Option(names = "--no-mcp-permission",
            description = "Do not add the Claude Code permission rule that allows Baton's MCP tools (mcp__baton__*).")
    boolean noMcpPermission;

    @Option(names = "--service", description = "Also run the sidecar as a user service (as `baton service install`),"
            + " so no edit waits for it to start.")
    boolean service;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
    public boolean help;

    private final Map<String, String> environment;
    private final HookScript scriptOverride; // null: the script packaged with this build
    private final ProgramSource program;

    public InstallCommand() {
        this(System.getenv());
    }

    /** @param environment the variables paths are derived from (see {@link InstallLayout}) */
    public InstallCommand(Map<String, String> environment) {
        this(environment, null, ProgramSource.ofRunningCode());
    }

    public InstallCommand(Map<String, String> environment, HookScript scriptOverride, ProgramSource program) {
        this.environment = Map.copyOf(environment);
        this.scriptOverride = scriptOverride;
        this.program = program;
    }

    @Override
    public Integer call() {
        InstallLayout layout = InstallLayout.fromEnvironment(environment);
        Target target = agents.toTarget(spec);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (agents.noneNamed(spec)) {
            List<AgentWiring> found = new ArrayList<>();
            for (AgentWiring agent : AgentWirings.ALL) {
                if (agent.isUsedOn(layout)) {
                    found.add(agent);
                }
            }
            if (found.isEmpty()) {
                err.println("baton install: found none of "
                        + String.join(", ", AgentWirings.ALL.stream().map(AgentWiring::command).toList())
                        + " on PATH and none of their config directories ("
                        + String.join(", ", AgentWirings.ALL.stream().map(agent -> agent.configDir(layout).toString()).toList())
                        + "). Name the agents to install for, e.g. baton install --claude --codex.");
                err.flush();
                return 1;
            }
            target = new Target(found, target.scope(), target.project());
        }
        try {
            HookScript script = scriptOverride != null ? scriptOverride : HookScript.packaged();
            Installer installer = new Installer(layout, script, program, out, err);
            int installed = installer.install(target, dryRun, !noMcp, !noMcp && !noMcpPermission);
            if (installed != 0 || !service) {
                return installed;
            }
            int serviced = new UserService(layout, environment, UserService.Platform.current()).install(out, dryRun);
            out.flush();
            return serviced;
        } catch (InstallerException | UncheckedIOException e) {
            err.println("baton install: " + e.getMessage());
            err.flush();
            return 1;
        }
    }
}
