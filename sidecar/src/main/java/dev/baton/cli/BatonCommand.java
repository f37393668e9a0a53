package dev.baton.cli;

import dev.baton.BatonVersion;
import dev.baton.installer.DoctorCommand;
import dev.baton.installer.InstallCommand;
import dev.baton.installer.ServiceCommand;
import dev.baton.installer.UninstallCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code baton} command: the sidecar, its client verbs and the installer, in one executable. */
@Command(name = "baton", mixinStandardHelpOptions = true, versionProvider = BatonCommand.Version.class,
        description = "File locks and coordination for several AI coding agents editing one repository.",
        subcommands = {
                ServeCommand.class,
                StopCommand.class,
                StatusCommand.class,
                LockCommands.Locks.class,
                LockCommands.Check.class,
                LockCommands.Acquire.class,
                LockCommands.Release.class,
                LockCommands.CleanupStale.class,
                LockCommands.History.class,
                ExclusiveCommand.class,
                NegotiateCommand.class,
                RespondCommand.class,
                ForceReleaseCommand.class,
                NegotiationsCommand.class,
                MessageCommands.class,
                PlanCommands.class,
                InstallCommand.class,
                UninstallCommand.class,
                DoctorCommand.class,
                ServiceCommand.class,
                WatchCommand.class,
                DashboardCommand.class,
                DeadlocksCommand.class,
        })
public final class BatonCommand implements Runnable {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine line = new CommandLine(new BatonCommand());
        line.addSubcommand(new CommandLine.HelpCommand());
        addHelpOption(line);
        line.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof CliException cli) {
                commandLine.getErr().println("baton: " + cli.getMessage());
                return 2;
            }
            commandLine.getErr().println("baton: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return 3;
        });
        return line;
    }

    /** Every command and subcommand answers {@code -h/--help}, whoever declared it, so no verb is left out. */
    private static void addHelpOption(CommandLine line) {
        CommandLine.Model.CommandSpec command = line.getCommandSpec();
        if (command.optionsMap().get("--help") == null && command.optionsMap().get("-h") == null) {
            command.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("Show this help and exit.").build());
        }
        line.getSubcommands().values().forEach(BatonCommand::addHelpOption);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"baton " + BatonVersion.VERSION};
        }
    }
}
