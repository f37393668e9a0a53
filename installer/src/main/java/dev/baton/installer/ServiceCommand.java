package dev.baton.installer;

import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.service.UserService;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code baton service install|uninstall|status}: the sidecar as a service of the user's service manager. */
@Command(name = "service", description = {"Run the sidecar as a user service, so no edit waits for it to start:",
        "systemd socket activation on Linux, a launchd agent on macOS."},
        subcommands = {ServiceCommand.Install.class, ServiceCommand.Uninstall.class, ServiceCommand.Status.class})
public final class ServiceCommand implements Runnable {

    @Spec
    public CommandSpec spec;

    private final Map<String, String> environment;

    public ServiceCommand() {
        this(System.getenv());
    }

    /** @param environment the variables paths are derived from (see {@link InstallLayout}) */
    public ServiceCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs one subcommand with the service of the environment's layout, turning refusals into a message and exit 1. */
    private static int with(CommandSpec spec, String verb, Map<String, String> environment, Action action) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            UserService service = new UserService(InstallLayout.fromEnvironment(environment), environment,
                    UserService.Platform.current());
            return action.run(service, out);
        } catch (InstallerException | UncheckedIOException e) {
            err.println("baton service " + verb + ": " + e.getMessage());
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private interface Action {
        int run(UserService service, PrintWriter out) throws InstallerException;
    }

    @Command(name = "install", description = {"Install and start the service (Linux: ~/.config/systemd/user/baton.socket",
            "and baton.service; macOS: ~/Library/LaunchAgents/dev.baton.sidecar.plist). Needs `baton install` first."})
    static final class Install implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @ParentCommand
        ServiceCommand parent;

        @Option(names = "--dry-run", description = "Print what would be written and run, and change nothing.")
        boolean dryRun;

        @Override
        public Integer call() {
            return with(spec, "install", parent.environment, (service, out) -> service.install(out, dryRun));
        }
    }

    @Command(name = "uninstall", description = "Stop the service and remove its files; the hooks start the sidecar on demand again.")
    public static final class Uninstall implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @ParentCommand
        ServiceCommand parent;

        @Override
        public Integer call() {
            return with(spec, "uninstall", parent.environment, UserService::uninstall);
        }
    }

    @Command(name = "status", description = "Say what starts the sidecar: the service (with its state) or the hooks, on demand.")
    public static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @ParentCommand
        ServiceCommand parent;

        @Override
        public Integer call() {
            return with(spec, "status", parent.environment, (service, out) -> {
                service.status().lines().forEach(out::println);
                return 0;
            });
        }
    }
}
