package dev.baton.installer;

import dev.baton.agent.AgentWirings;
import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.agents.Target;
import dev.baton.installer.layout.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * The options {@code install} and {@code uninstall} share: which agents (an option per agent of the agents' list,
 * {@code --claude}, added by {@link AgentFlags}), at which scope, in which project.
 */
final class AgentOptions {

    @Option(names = "--scope", paramLabel = "user|project|local", defaultValue = "user",
            converter = ScopeConverter.class,
            description = "user: your own config files; project: the project's shared files;"
                    + " local: the project's private files. Default: ${DEFAULT-VALUE}.")
    Scope scope;

    @Option(names = "--project", paramLabel = "DIR",
            description = "Project directory for project and local scope. Default: the current directory.")
    Path project;

    /** The agents the command line names, in the order of the agents' list. */
    private static List<AgentWiring> named(CommandSpec spec) {
        return AgentWirings.ALL.stream().filter(agent -> {
            OptionSpec option = spec.findOption(agent.option());
            return option != null && Boolean.TRUE.equals(option.getValue());
        }).toList();
    }

    /** Whether the command line names no agent, so the command picks them itself. */
    boolean noneNamed(CommandSpec spec) {
        return named(spec).isEmpty();
    }

    /** The validated target, all agents when none is named; bad input becomes a usage error naming the option. */
    Target toTarget(CommandSpec spec) {
        List<AgentWiring> agents = named(spec);
        Path directory = project != null ? project : Path.of(System.getProperty("user.dir"));
        if (!Files.isDirectory(directory)) {
            throw new ParameterException(spec.commandLine(), "--project " + directory + " is not a directory"
                    + (Files.exists(directory) ? "" : " (it does not exist)") + "; give the project's root directory.");
        }
        return new Target(agents.isEmpty() ? AgentWirings.ALL : agents, scope, directory);
    }

    /** Adds a flag per agent of the agents' list to a command, so a new agent needs no option written here. */
    public static final class AgentFlags implements IModelTransformer {

        @Override
        public CommandSpec transform(CommandSpec command) {
            for (AgentWiring agent : AgentWirings.ALL) {
                command.addOption(OptionSpec.builder(agent.option()).type(boolean.class).arity("0")
                        .initialValue(false).description(agent.description()).build());
            }
            return command;
        }
    }
    /** Turns {@code --scope} text into a {@link Scope}, with a message listing the valid scopes. */
    static final class ScopeConverter implements ITypeConverter<Scope> {

        @Override
        public Scope convert(String value) {
            try {
                return Scope.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
