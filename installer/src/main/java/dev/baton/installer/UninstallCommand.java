package dev.baton.installer;

import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.agents.Target;
import dev.baton.installer.service.UserService;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code baton uninstall}: removes what {@code baton install} added to the agents' config. */
@Command(name = "uninstall", modelTransformer = AgentOptions.AgentFlags.class,
        description = "Remove Baton's hooks and MCP server from the agents' config, restoring untouched files byte for byte.")
public final class UninstallCommand implements Callable<Integer> {

    @Spec
    public CommandSpec spec;

    @Mixin
    public AgentOptions agents;

    @Option(names = "--purge", description = "Also delete the hook script, the program jar and the launchers, and"
            + " remove the service (`baton service uninstall`) if there is one.")
    boolean purge;

    @Option(names = "--dry-run", description = "Print what would change and write nothing.")
    public boolean dryRun;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
    public boolean help;

    private final Map<String, String> environment;

    public UninstallCommand() {
        this(System.getenv());
    }

    /** @param environment the variables paths are derived from (see {@link InstallLayout}) */
    public UninstallCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Integer call() {
        Target target = agents.toTarget(spec);
        PrintWriter err = spec.commandLine().getErr();
        try {
            InstallLayout layout = InstallLayout.fromEnvironment(environment);
            int exit = new Uninstaller(layout, spec.commandLine().getOut()).uninstall(target, purge, dryRun);
            UserService service = new UserService(layout, environment, UserService.Platform.current());
            // --purge deletes the launcher the service runs: a service left behind would fail at every login.
            if (exit == 0 && purge && !dryRun && service.status().mode() != UserService.Mode.ON_DEMAND) {
                exit = service.uninstall(spec.commandLine().getOut());
            }
            return exit;
        } catch (InstallerException | UncheckedIOException e) {
            err.println("baton uninstall: " + e.getMessage());
            err.flush();
            return 1;
        }
    }
}
