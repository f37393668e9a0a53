package dev.baton.installer;

import dev.baton.installer.layout.Agent;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.layout.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** The options {@code install} and {@code uninstall} share: which agents, at which scope, in which project. */
final class AgentOptions {

    @Option(names = "--claude", description = "Claude Code (with no agent named: every agent found on this machine).")
    boolean claude;

    @Option(names = "--copilot", description = "GitHub Copilot CLI.")
    boolean copilot;

    @Option(names = "--codex", description = "OpenAI Codex CLI.")
    boolean codex;

    @Option(names = "--gemini", description = "Gemini CLI.")
    boolean gemini;

    @Option(names = "--opencode", description = "OpenCode (a plug-in, no hooks).")
    boolean opencode;

    @Option(names = "--scope", paramLabel = "user|project|local", defaultValue = "user",
            converter = ScopeConverter.class,
            description = "user: your own config files; project: the project's shared files;"
                    + " local: the project's private files. Default: ${DEFAULT-VALUE}.")
    Scope scope;

    @Option(names = "--project", paramLabel = "DIR",
            description = "Project directory for project and local scope. Default: the current directory.")
    Path project;

    /** Whether the command line names no agent, so the command picks them itself. */
    boolean noneNamed() {
        return !(claude || copilot || codex || gemini || opencode);
    }

    /** The validated target; bad input becomes a usage error naming the option. */
    Target toTarget(CommandSpec spec) {
        Set<Agent> agents = EnumSet.noneOf(Agent.class);
        if (claude) {
            agents.add(Agent.CLAUDE);
        }
        if (copilot) {
            agents.add(Agent.COPILOT);
        }
        if (codex) {
            agents.add(Agent.CODEX);
        }
        if (gemini) {
            agents.add(Agent.GEMINI);
        }
        if (opencode) {
            agents.add(Agent.OPENCODE);
        }
        Path directory = project != null ? project : Path.of(System.getProperty("user.dir"));
        if (!Files.isDirectory(directory)) {
            throw new ParameterException(spec.commandLine(), "--project " + directory + " is not a directory"
                    + (Files.exists(directory) ? "" : " (it does not exist)") + "; give the project's root directory.");
        }
        return new Target(agents, scope, directory);
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
