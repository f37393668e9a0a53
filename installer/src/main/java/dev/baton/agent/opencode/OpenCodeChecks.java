package dev.baton.agent.opencode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The doctor's checks of OpenCode, which runs Baton's plug-in rather than hook commands: the plug-in at some scope, and
 * it byte for byte what this install writes (an older Baton's plug-in, or one edited since, is reported); Baton's MCP
 * entry in an {@code opencode.json}, and a run of it as OpenCode starts it.
 */
final class OpenCodeChecks {

    private static final String PLUGIN = "OpenCode plug-in";
    private static final String MCP = "OpenCode MCP";

    private final AgentWiring opencode;
    private final InstallLayout layout;
    private final Path project;

    OpenCodeChecks(AgentWiring opencode, InstallLayout layout, Path project) {
        this.opencode = opencode;
        this.layout = layout;
        this.project = project;
    }

    /** @param mcpRun starts an MCP server command as the agent would and judges its answer */
    List<Check> run(Function<List<String>, Check> mcpRun) {
        List<Check> checks = new ArrayList<>();
        List<Path> plugins = new ArrayList<>();
        for (Scope scope : Scope.values()) {
            OpenCodePlugin.file(layout, scope, project).filter(Files::exists).ifPresent(plugins::add);
        }
        Optional<Found> mcp = mcpEntry();
        if (plugins.isEmpty() && mcp.isEmpty() && !opencode.isUsedOn(layout)) {
            checks.add(new Check(Status.SKIPPED, opencode.displayName(), "not set up here (no " + opencode.configDir(layout)
                    + ", no `opencode` on PATH)", ""));
            return checks;
        }
        checks.addAll(pluginChecks());
        if (mcp.isEmpty()) {
            checks.add(Check.problem(MCP, "no " + McpRegistration.SERVER + " server in an opencode.json ("
                    + opencode.configDir(layout).resolve("opencode.json") + ", " + project.resolve("opencode.json") + ")",
                    installCommand(Scope.USER) + " (without --no-mcp)"));
        } else if (!mcp.get().current()) {
            checks.add(Check.problem(MCP, "mcp." + McpRegistration.SERVER + " in " + mcp.get().file() + " does not run this"
                    + " install's " + HookCommand.MARKER + " as Baton's MCP server", installCommand(mcp.get().scope())));
        } else {
            checks.add(Check.ok(MCP, "mcp." + McpRegistration.SERVER + " in " + mcp.get().file()));
            checks.add(mcpRun.apply(OpenCodeConfig.commandLine(OpenCodeConfig.mcpEntry(layout.mcpScript()))));
        }
        if (!plugins.isEmpty()) {
            checks.add(Check.ok("OpenCode shell", "while other sessions hold files, its plug-in has each bash command run"
                    + " through Baton's wrapper (its permission rules then see the wrapped command)"));
        }
        return checks;
    }

    private List<Check> pluginChecks() {
        List<Check> checks = new ArrayList<>();
        for (Scope scope : Scope.values()) {
            Optional<Path> file = OpenCodePlugin.file(layout, scope, project);
            if (file.isEmpty() || !Files.exists(file.get())) {
                continue;
            }
            try {
                if (OpenCodePlugin.of(file.get(), layout.hookScript()).isCurrent()) {
                    checks.add(Check.ok(PLUGIN, file.get() + " is this install's plug-in"));
                } else {
                    checks.add(Check.problem(PLUGIN, file.get() + " is not the plug-in this install writes (an older"
                            + " Baton's, or edited since), so OpenCode may check its edits the old way or not at all",
                            installCommand(scope)));
                }
            } catch (InstallerException e) {
                checks.add(Check.problem(PLUGIN, e.getMessage(), "move that file away, then " + installCommand(scope)));
            }
        }
        if (checks.isEmpty()) {
            checks.add(Check.problem(PLUGIN, "no plug-in directory of OpenCode holds Baton's plug-in ("
                    + OpenCodePlugin.file(layout, Scope.USER, project).orElseThrow() + ", "
                    + OpenCodePlugin.file(layout, Scope.PROJECT, project).orElseThrow() + "), so OpenCode's edits are not"
                    + " checked", installCommand(Scope.USER) + " (or --scope project)"));
        }
        return checks;
    }

    private record Found(Scope scope, Path file, boolean current) {
    }

    /** The first opencode.json (user, then project) that holds an MCP entry named baton. */
    private Optional<Found> mcpEntry() {
        for (Scope scope : Scope.values()) {
            Optional<JsonConfigFile> file = OpenCodeConfig.file(layout, scope, project);
            if (file.isEmpty() || !Files.exists(file.get().path())) {
                continue;
            }
            try {
                Optional<JsonNode> entry = OpenCodeConfig.mcpOf(file.get().read().tree());
                if (entry.isPresent()) {
                    JsonNode expected = OpenCodeConfig.mcpEntry(layout.mcpScript());
                    boolean current = expected.get("command").equals(entry.get().get("command"))
                            && expected.get("type").equals(entry.get().get("type"));
                    return Optional.of(new Found(scope, file.get().path(), current));
                }
            } catch (InstallerException e) {
                return Optional.of(new Found(scope, file.get().path(), false));
            }
        }
        return Optional.empty();
    }

    private String installCommand(Scope scope) {
        String command = "baton install " + opencode.option() + " --scope " + scope;
        return scope.isProjectBound() ? command + " --project " + HookCommand.shellWord(project.toString()) : command;
    }
}
