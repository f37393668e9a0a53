package dev.baton.installer.agents;

import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One coding agent as the installer knows it: its names, where it keeps its configuration, what install and
 * uninstall change there, and the doctor's checks of it. Each agent's package implements it once and the agents' list
 * registers it; the commands know agents only through it.
 */
public interface AgentWiring {

    /**
     * The planning of an install or uninstall goes through the agents once per stage, so that every agent's hooks
     * come first, then the other settings, the MCP entries and last the configuration in other formats, whatever
     * agents are chosen: the files are written, and printed, in that order.
     */
    enum Stage {
        HOOKS, SETTINGS, MCP, CONFIG
    }

    /** The word for the agent: its option ({@code --claude}) and the dialect its hook commands pass on. */
    String name();

    String displayName();

    /** The agent's option as the help describes it. */
    String description();

    /** The command its CLI is started by. */
    default String command() {
        return name();
    }

    default String option() {
        return "--" + name();
    }

    /** The agent's own configuration directory, whose existence means the agent is used here. */
    Path configDir(InstallLayout layout);

    /** What the agent's parser accepts in the JSON files Baton edits for it. */
    JsonSyntax syntax();

    /**
     * The file that holds Baton's hooks for the agent at a scope (OpenCode's is Baton's plug-in), or empty where the
     * agent has no such scope.
     */
    Optional<Path> hookFile(InstallLayout layout, Scope scope, Path project);

    /** Plans the agent's part of one stage of an install. */
    void planInstall(Stage stage, InstallPlan plan) throws InstallerException;

    /** Plans the agent's part of one stage of an uninstall: what its install added, taken out again. */
    void planUninstall(Stage stage, UninstallPlan plan) throws InstallerException;

    /** What the user is told after an install for the agent, if anything. */
    default Optional<String> installNote(InstallLayout layout) {
        return Optional.empty();
    }

    /** The doctor's checks of the agent, in the order they are shown. */
    List<Check> diagnose(AgentChecks doctor);

    /** Whether this machine uses the agent: its CLI is on PATH or its configuration directory exists. */
    default boolean isUsedOn(InstallLayout layout) {
        if (Files.isDirectory(configDir(layout))) {
            return true;
        }
        for (Path entry : layout.searchPath()) {
            if (Files.isExecutable(entry.resolve(command()))) {
                return true;
            }
        }
        return false;
    }

    /** A JSON file of the agent's, readable by others when Baton has to create it. */
    default JsonConfigFile sharedFile(Path path) {
        return JsonConfigFile.shared(path, displayName(), syntax());
    }

    /** A JSON file of the agent's that holds, or may hold, secrets: owner-only when Baton creates it. */
    default JsonConfigFile secretFile(Path path) {
        return JsonConfigFile.secret(path, displayName(), syntax());
    }
}
