package dev.baton.cli;

import dev.baton.BatonVersion;
import dev.baton.installer.DoctorCommand;
import dev.baton.installer.InstallCommand;
import dev.baton.installer.ServiceCommand;
import dev.baton.installer.UninstallCommand;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code baton} command: the sidecar, its client verbs and the installer, in one executable. */
@Command(name = "baton", mixinStandardHelpOptions = true, versionProvider = BatonCommand.Version.class,
        description = "File locks and coordination for several AI coding agents editing one repository.",
        subcommands = {
                ServeCommand.class,
                StopCommand.class,
                StatusCommand.class,
                TeamCommands.class,
                LockCommands.Locks.class,
                LockCommands.Check.class,
                LockCommands.Overlaps.class,
                LockCommands.Acquire.class,
                LockCommands.Release.class,
                LockCommands.CleanupStale.class,
                LockCommands.History.class,
                ExclusiveCommand.class,
                NegotiateCommand.class,
                RespondCommand.class,
                ForceReleaseCommand.class,
                RestoreCommand.class,
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

    private static final String SERVE = "serve";

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        if (args.length > 0 && args[0].equals(SERVE)) {
            String[] rest = Arrays.copyOfRange(args, 1, args.length);
            Optional<ServeCommand> plain = ServeCommand.fromPlainArguments(rest);
            if (plain.isEmpty()) {
                return serveCommandLine().execute(rest);
            }
            PrintWriter err = new PrintWriter(System.err, true);
            try {
                return plain.get().call();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return failed(e, err);
            } catch (Exception e) {
                return failed(e, err);
            }
        }
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine line = new CommandLine(new BatonCommand());
        line.addSubcommand(new CommandLine.HelpCommand());
        return configured(line);
    }

    /**
     * {@code baton serve} alone, as the tree has it. A hook that starts the sidecar waits for it, so the sidecar does
     * not build the other commands: picocli reads every command's annotations and makes every command object when
     * it builds the tree, which was about a quarter of a start's time (docs/PERFORMANCE.md, "Start-up and footprint").
     */
    public static CommandLine serveCommandLine() {
        return configured(new CommandLine(new ServeCommand()).setCommandName("baton " + SERVE));
    }

    private static CommandLine configured(CommandLine line) {
        addHelpOption(line);
        line.setExecutionExceptionHandler((e, commandLine, parseResult) -> failed(e, commandLine.getErr()));
        return line;
    }

    /** What a command that threw prints, and its exit status: 2 for a refusal the command explained, else 3. */
    private static int failed(Exception e, PrintWriter err) {
        if (e instanceof CliException cli) {
            err.println("baton: " + cli.getMessage());
            return 2;
        }
        err.println("baton: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        return 3;
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
