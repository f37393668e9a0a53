package dev.baton.installer.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.doctor.McpProbe;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The doctor's checks per agent, and what they share: for an agent with hook commands, Baton's hooks at every scope, a
 * run of the installed hook command as the agent runs it, the agent's hook trust, and Baton's MCP entry and a run of
 * it. An agent this machine does not use is skipped.
 */
public final class AgentChecks {

    /** A hook file holding Baton's hooks. */
    public record Installed(Scope scope, Path file, ObjectNode tree) {
    }

    /** The doctor's check of an MCP entry, and the command line of the entry when it is Baton's as installed. */
    public record McpEntry(Check check, List<String> command) {
    }

    private final InstallLayout layout;
    private final Path project;
    private final HookProbe probe;
    private final McpProbe mcpProbe;
    private final Map<String, String> environment;
    private final ShellWrapperChecks.Mode shellMode;

    /** @param shellMode how shell commands run on this machine, which each agent's shell line then says */
    public AgentChecks(InstallLayout layout, Path project, Map<String, String> environment,
            ShellWrapperChecks.Mode shellMode) {
        this.layout = layout;
        this.shellMode = shellMode;
        this.project = project;
        this.environment = Map.copyOf(environment);
        this.probe = new HookProbe(environment);
        this.mcpProbe = new McpProbe(environment);
    }

    public void addTo(List<Check> checks, List<AgentWiring> agents) {
        for (AgentWiring agent : agents) {
            String shell = ShellWrapperChecks.subject(agent);
            agent.diagnose(this).stream()
                    .map(check -> check.subject().equals(shell) ? shellMode.apply(check) : check)
                    .forEach(checks::add);
        }
    }

    public InstallLayout layout() {
        return layout;
    }

    public Path project() {
        return project;
    }

    /** What the agents' hook commands run with. */
    public Map<String, String> environment() {
        return environment;
    }

    /** The checks of an agent that runs Baton's hook commands. */
    List<Check> hooked(HookedAgent agent) {
        List<Check> checks = new ArrayList<>();
        List<Installed> installed = new ArrayList<>();
        boolean anyFile = false;
        for (Scope scope : Scope.values()) {
            Optional<Path> file = agent.hookFile(layout, scope, project);
            if (file.isPresent() && Files.exists(file.get())) {
                anyFile = true;
                parse(file.get(), agent, subject(agent, "hooks"), checks).ifPresent(tree -> installed.add(new Installed(scope, file.get(), tree)));
            }
        }
        if (!anyFile && !agent.isUsedOn(layout)) {
            checks.add(new Check(Status.SKIPPED, agent.displayName(), "not set up here (no "
                    + agent.configDir(layout) + ", no `" + agent.command() + "` on PATH)", ""));
            return checks;
        }
        List<Installed> complete = hooks(agent, installed, checks);
        if (!complete.isEmpty()) {
            run(agent, complete.get(0), checks);
        }
        checks.addAll(agent.trustChecks(this, complete));
        McpEntry mcp = agent.mcpEntry(this);
        checks.add(mcp.check());
        if (!mcp.command().isEmpty()) {
            checks.add(mcpRun(agent, agent.mcpCommand(installed, mcp.command()), agent::passesToMcp));
        }
        checks.addAll(agent.settingsChecks(installed));
        agent.shellCheck(layout, complete.stream().findFirst().map(Installed::tree)).ifPresent(checks::add);
        return checks;
    }

    private List<Installed> hooks(HookedAgent agent, List<Installed> installed, List<Check> checks) {
        String subject = subject(agent, "hooks");
        int total = agent.events().events().size();
        List<Installed> complete = new ArrayList<>();
        for (Installed entry : installed) {
            List<String> missing = agent.missingEvents(entry.tree());
            List<String> notBlocking = agent.eventsNotBlockingOnFailure(entry.tree());
            if (missing.isEmpty() && notBlocking.isEmpty()) {
                complete.add(entry);
                checks.add(Check.ok(subject, "all " + total + " events in " + entry.file()));
            } else if (missing.isEmpty()) {
                complete.add(entry);
                checks.add(Check.problem(subject, entry.file() + ": Baton's " + String.join(", ", notBlocking) + " hook"
                        + " lacks \"" + GroupedHooks.ON_FAILURE + "\": \"" + GroupedHooks.BLOCK + "\", so "
                        + agent.displayName() + " runs an edit or command whose hook could not start or timed out",
                        installCommand(agent, entry.scope())));
            } else if (missing.size() < total) {
                checks.add(Check.problem(subject, entry.file() + " lacks Baton's hook for " + String.join(", ", missing),
                        installCommand(agent, entry.scope())));
            }
        }
        if (complete.isEmpty() && checks.stream().noneMatch(check -> check.subject().equals(subject)
                && check.status() == Status.PROBLEM)) {
            checks.add(Check.problem(subject, "no " + agent.displayName() + " config file holds Baton's hooks",
                    installCommand(agent, Scope.USER) + " (or --scope project)"));
        }
        return complete;
    }

    /** Runs the installed edit hook as the agent would, with a probe edit, and expects it to be allowed. */
    private void run(HookedAgent agent, Installed installed, List<Check> checks) {
        Map<String, List<String>> commands = agent.commands(installed.tree());
        String editEvent = agent.events().events().get(0).event();
        List<String> edit = commands.getOrDefault(editEvent, List.of());
        if (edit.isEmpty()) {
            return;
        }
        Optional<String> end = commands.getOrDefault(agent.endEvent(), List.of()).stream().findFirst();
        HookProbe.Outcome outcome = probe.probe(agent, edit.get(0), end);
        String subject = subject(agent, "hook run");
        checks.add(outcome.allowed()
                ? Check.ok(subject, outcome.description() + " (" + installed.file().getFileName() + ", " + editEvent + ")")
                : Check.problem(subject, "the " + editEvent + " hook in " + installed.file() + " did not allow a probe edit: "
                        + outcome.description(), "fix the problems above, then run `baton doctor` again; the hook's"
                        + " own log is " + layout.sidecarHome().logFile()));
    }

    /** Starts the installed MCP server as the agent would and expects Baton's tools from it. */
    public Check mcpRun(AgentWiring agent, List<String> command) {
        return mcpRun(agent, command, name -> true);
    }

    /** @param passed which of the doctor's environment variables the agent passes on to its MCP servers */
    public Check mcpRun(AgentWiring agent, List<String> command, Predicate<String> passed) {
        McpProbe.Outcome outcome = mcpProbe.probe(command, passed);
        String subject = subject(agent, "MCP run");
        return outcome.listed()
                ? Check.ok(subject, outcome.description())
                : Check.problem(subject, "Baton's MCP server, started as " + agent.displayName() + " starts it, "
                        + outcome.description(), "fix the problems above, then run `baton doctor` again; the sidecar's"
                        + " log is " + layout.sidecarHome().logFile());
    }

    /** Baton's entry in the agent's JSON MCP configuration: the first scope that holds one. */
    McpEntry jsonMcpEntry(HookedAgent agent) {
        String subject = subject(agent, "MCP");
        for (Scope scope : Scope.values()) {
            for (McpRegistration.Placement placement : agent.mcpPlacements(layout, scope, project)) {
                Optional<JsonNode> entry = findEntry(placement);
                if (entry.isEmpty()) {
                    continue;
                }
                ObjectNode expected = McpRegistration.entry(placement, layout.mcpScript());
                String where = placement.describe() + " in " + placement.file().path();
                // Only what Baton wrote matters; other keys may have been tuned by the user.
                for (Map.Entry<String, JsonNode> field : expected.properties()) {
                    if (!field.getValue().equals(entry.get().get(field.getKey()))) {
                        return new McpEntry(Check.problem(subject, where + " does not run this install's "
                                + HookScript.MCP + " as Baton's MCP server (" + field.getKey() + ")",
                                installCommand(agent, scope)), List.of());
                    }
                }
                return new McpEntry(Check.ok(subject, where), commandLine(expected));
            }
        }
        return new McpEntry(Check.problem(subject, "no " + McpRegistration.SERVER + " server registered",
                installCommand(agent, Scope.USER) + " (without --no-mcp)"), List.of());
    }

    /** An MCP entry's command and arguments, as the agent starts them. */
    public static List<String> commandLine(JsonNode entry) {
        List<String> command = new ArrayList<>(List.of(entry.path("command").asText()));
        entry.path("args").forEach(arg -> command.add(arg.asText()));
        return command;
    }

    private static Optional<JsonNode> findEntry(McpRegistration.Placement placement) {
        if (!Files.exists(placement.file().path())) {
            return Optional.empty();
        }
        try {
            return McpRegistration.find(placement.file().read().tree(), placement);
        } catch (InstallerException e) {
            return Optional.empty();
        }
    }

    private static Optional<ObjectNode> parse(Path file, AgentWiring agent, String subject, List<Check> checks) {
        try {
            return Optional.of(JsonText.parseObject(Files.readString(file), agent.syntax()));
        } catch (JsonText.InvalidJson e) {
            checks.add(Check.problem(subject, file + " is not a valid JSON object: " + e.getMessage(),
                    "repair the JSON in " + file + ", then run `baton doctor` again"));
        } catch (IOException e) {
            checks.add(Check.problem(subject, "cannot read " + file + ": " + e.getMessage(),
                    "make " + file + " readable by you"));
        }
        return Optional.empty();
    }

    /** A check's subject: the agent's first word and what is checked ("Claude hooks"). */
    public static String subject(AgentWiring agent, String what) {
        return agent.displayName().split(" ")[0] + " " + what;
    }

    /** The command that installs the agent at a scope, for this project. */
    public String installCommand(AgentWiring agent, Scope scope) {
        String command = "baton install " + agent.option() + " --scope " + scope;
        return scope.isProjectBound() ? command + " --project " + HookCommand.shellWord(project.toString()) : command;
    }
}
