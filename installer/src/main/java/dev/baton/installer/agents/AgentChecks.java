package dev.baton.installer.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.HookCommand;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.doctor.McpProbe;
import dev.baton.installer.layout.Agent;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.layout.Target;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The doctor's checks per agent: Baton's hooks at every scope, a run of the installed hook command as the agent
 * runs it, the agent's hook trust, and Baton's MCP entry. An agent this machine does not use is skipped.
 */
public final class AgentChecks {

    /** A hook file holding Baton's hooks. */
    private record Installed(Scope scope, Path file, ObjectNode tree) {
    }

    /** The doctor's check of an MCP entry, and the command line of the entry when it is Baton's as installed. */
    private record McpEntry(Check check, List<String> command) {
    }

    /** What Codex gives every MCP server it starts, besides the variables its entry names. */
    private static final Set<String> CODEX_BASICS = Set.of("HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG",
            "LC_ALL", "TERM", "TMPDIR", "TZ");

    private final InstallLayout layout;
    private final Path project;
    private final HookProbe probe;
    private final McpProbe mcpProbe;
    private final Map<String, String> environment;

    public AgentChecks(InstallLayout layout, Path project, Map<String, String> environment) {
        this.layout = layout;
        this.project = project;
        this.environment = Map.copyOf(environment);
        this.probe = new HookProbe(environment);
        this.mcpProbe = new McpProbe(environment);
    }

    public void addTo(List<Check> checks) {
        for (Agent agent : Agent.values()) {
            if (agent == Agent.OPENCODE) {
                checks.addAll(new OpenCodeChecks(layout, project).run(command -> mcpRun(agent, command)));
                continue;
            }
            List<Installed> installed = new ArrayList<>();
            boolean anyFile = false;
            for (Scope scope : Scope.values()) {
                Optional<Path> file = AgentFiles.hookFile(layout, agent, scope, project);
                if (file.isPresent() && Files.exists(file.get())) {
                    anyFile = true;
                    parse(file.get(), agent, subject(agent, "hooks"), checks).ifPresent(tree -> installed.add(new Installed(scope, file.get(), tree)));
                }
            }
            if (!anyFile && !agent.isUsedOn(layout)) {
                checks.add(new Check(Status.SKIPPED, agent.displayName(), "not set up here (no "
                        + layout.configDir(agent) + ", no `" + agent.command() + "` on PATH)", ""));
                continue;
            }
            List<Installed> complete = hooks(agent, installed, checks);
            if (!complete.isEmpty()) {
                run(agent, complete.get(0), checks);
            }
            if (agent == Agent.CODEX) {
                codexTrust(complete, checks);
            }
            if (agent == Agent.GEMINI) {
                checks.add(geminiFolderTrust());
            }
            McpEntry mcp = agent == Agent.CODEX ? codexMcp() : mcpEntry(agent);
            checks.add(mcp.check());
            if (!mcp.command().isEmpty()) {
                checks.add(mcpRun(agent, agent == Agent.CLAUDE ? throughShellPrefix(installed, mcp.command()) : mcp.command()));
            }
            if (agent == Agent.CLAUDE) {
                checks.add(claudeMcpRule(installed));
            }
            ShellWrapperChecks.agent(layout, agent, complete.stream().findFirst().map(Installed::tree)).ifPresent(checks::add);
        }
    }

    private List<Installed> hooks(Agent agent, List<Installed> installed, List<Check> checks) {
        String subject = subject(agent, "hooks");
        int total = HookEvents.of(agent).events().size();
        List<Installed> complete = new ArrayList<>();
        for (Installed entry : installed) {
            List<String> missing = agent == Agent.COPILOT
                    ? CopilotHooks.missingEvents(entry.tree())
                    : GroupedHooks.missingEvents(entry.tree(), HookEvents.of(agent));
            List<String> notBlocking = agent == Agent.COPILOT ? List.of()
                    : GroupedHooks.eventsNotBlockingOnFailure(entry.tree(), HookEvents.of(agent));
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
    private void run(Agent agent, Installed installed, List<Check> checks) {
        Map<String, List<String>> commands = agent == Agent.COPILOT
                ? CopilotHooks.commands(installed.tree())
                : GroupedHooks.commands(installed.tree());
        String editEvent = HookEvents.of(agent).events().get(0).event();
        String endEvent = agent == Agent.COPILOT ? "sessionEnd" : "SessionEnd";
        List<String> edit = commands.getOrDefault(editEvent, List.of());
        if (edit.isEmpty()) {
            return;
        }
        Optional<String> end = commands.getOrDefault(endEvent, List.of()).stream().findFirst();
        HookProbe.Outcome outcome = probe.probe(agent, edit.get(0), end);
        String subject = subject(agent, "hook run");
        checks.add(outcome.allowed()
                ? Check.ok(subject, outcome.description() + " (" + installed.file().getFileName() + ", " + editEvent + ")")
                : Check.problem(subject, "the " + editEvent + " hook in " + installed.file() + " did not allow a probe edit: "
                        + outcome.description(), "fix the problems above, then run `baton doctor` again; the hook's"
                        + " own log is " + layout.sidecarHome().logFile()));
    }

    private void codexTrust(List<Installed> installed, List<Check> checks) {
        Path config = AgentFiles.codexConfig(layout);
        for (Installed entry : installed) {
            Map<String, String> wanted = CodexTrust.batonEntries(entry.file(), entry.tree());
            List<String> untrusted = new ArrayList<>();
            try {
                String text = Files.exists(config) ? Files.readString(config) : "";
                for (Map.Entry<String, String> hook : wanted.entrySet()) {
                    if (!CodexConfigToml.trustedHash(text, hook.getKey()).map(hook.getValue()::equals).orElse(false)) {
                        untrusted.add(hook.getKey().substring(hook.getKey().lastIndexOf(".json:") + 6));
                    }
                }
            } catch (IOException e) {
                checks.add(Check.problem("Codex trust", "cannot read " + config + ": " + e.getMessage(),
                        "repair " + config + " (it must be valid TOML)"));
                continue;
            }
            checks.add(untrusted.isEmpty()
                    ? Check.ok("Codex trust", "Baton's " + wanted.size() + " hooks in " + entry.file() + " are trusted")
                    : Check.problem("Codex trust", "Codex skips Baton's untrusted hooks " + String.join(", ", untrusted)
                            + " in " + entry.file(), installCommand(Agent.CODEX, entry.scope())
                            + ", or trust them in Codex with /hooks"));
        }
    }

    private Check geminiFolderTrust() {
        if ("true".equals(environment.get("GEMINI_CLI_TRUST_WORKSPACE"))) {
            return Check.ok("Gemini trust", "GEMINI_CLI_TRUST_WORKSPACE=true trusts every folder");
        }
        Path file = layout.geminiDir().resolve("trustedFolders.json");
        try {
            if (Files.exists(file)) {
                ObjectNode folders = JsonText.parseObject(Files.readString(file), JsonSyntax.of(Agent.GEMINI));
                for (Iterator<Map.Entry<String, JsonNode>> it = folders.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> folder = it.next();
                    Path path = Path.of(folder.getKey());
                    String level = folder.getValue().asText();
                    if (level.equals("TRUST_FOLDER") && project.startsWith(path)
                            || level.equals("TRUST_PARENT") && path.getParent() != null && project.startsWith(path.getParent())) {
                        return Check.ok("Gemini trust", project + " is trusted (" + file + ")");
                    }
                }
            }
        } catch (IOException | JsonText.InvalidJson e) {
            return Check.problem("Gemini trust", "cannot read " + file + ": " + e.getMessage(), "repair " + file);
        }
        return new Check(Status.SKIPPED, "Gemini trust", project + " is not a trusted folder: Gemini runs no hooks in"
                + " it headless. Trust it when Gemini asks (or /permissions), or set GEMINI_CLI_TRUST_WORKSPACE=true", "");
    }

    private Check claudeMcpRule(List<Installed> installed) {
        for (Installed entry : installed) {
            if (ClaudeSettings.allowsMcpTools(entry.tree())) {
                return Check.ok("Claude MCP rule", ClaudeSettings.MCP_RULE + " allowed in " + entry.file());
            }
        }
        return new Check(Status.SKIPPED, "Claude MCP rule", "no settings file allows " + ClaudeSettings.MCP_RULE
                + "; Claude Code asks before each Baton MCP tool and refuses them in -p mode", "");
    }

    /**
     * Claude Code starts a stdio MCP server through its CLAUDE_CODE_SHELL_PREFIX where one is set: the prefix as a
     * program, the server's command line joined by spaces as its one argument.
     */
    private static List<String> throughShellPrefix(List<Installed> installed, List<String> command) {
        return installed.stream().map(entry -> ClaudeSettings.shellPrefixOf(entry.tree())).flatMap(Optional::stream)
                .findFirst().map(prefix -> List.of(prefix, String.join(" ", command))).orElse(command);
    }

    /** Starts the installed MCP server as the agent would and expects Baton's tools from it. */
    private Check mcpRun(Agent agent, List<String> command) {
        McpProbe.Outcome outcome = mcpProbe.probe(command, agent == Agent.CODEX
                ? name -> CODEX_BASICS.contains(name) || CodexConfigToml.MCP_VARIABLES.contains(name) : name -> true);
        String subject = subject(agent, "MCP run");
        return outcome.listed()
                ? Check.ok(subject, outcome.description())
                : Check.problem(subject, "Baton's MCP server, started as " + agent.displayName() + " starts it, "
                        + outcome.description(), "fix the problems above, then run `baton doctor` again; the sidecar's"
                        + " log is " + layout.sidecarHome().logFile());
    }

    private McpEntry mcpEntry(Agent agent) {
        String subject = subject(agent, "MCP");
        for (Scope scope : Scope.values()) {
            Target target = new Target(EnumSet.of(agent), scope, project);
            for (McpRegistration.Placement placement : McpRegistration.placements(layout, target)) {
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

    private McpEntry codexMcp() {
        Path config = AgentFiles.codexConfig(layout);
        try {
            Optional<JsonNode> server = Files.exists(config)
                    ? CodexConfigToml.mcpServer(Files.readString(config)) : Optional.empty();
            if (server.isEmpty()) {
                return new McpEntry(Check.problem("Codex MCP", "no " + McpRegistration.SERVER + " server in " + config,
                        installCommand(Agent.CODEX, Scope.USER) + " (without --no-mcp)"), List.of());
            }
            JsonNode expected = CodexConfigToml.mcpServer(CodexConfigToml.withMcpServer("",
                    layout.mcpScript().toAbsolutePath().toString())).orElseThrow();
            for (String key : List.of("command", "args")) {
                if (!expected.get(key).equals(server.get().get(key))) {
                    return new McpEntry(Check.problem("Codex MCP", "mcp_servers." + McpRegistration.SERVER + " in "
                            + config + " does not run this install's " + HookScript.MCP + " as Baton's MCP server ("
                            + key + ")", installCommand(Agent.CODEX, Scope.USER)), List.of());
                }
            }
            return new McpEntry(Check.ok("Codex MCP", "mcp_servers." + McpRegistration.SERVER + " in " + config),
                    commandLine(expected));
        } catch (IOException e) {
            return new McpEntry(Check.problem("Codex MCP", "cannot read " + config + ": " + e.getMessage(),
                    "repair " + config), List.of());
        }
    }

    /** An MCP entry's command and arguments, as the agent starts them. */
    private static List<String> commandLine(JsonNode entry) {
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

    private static Optional<ObjectNode> parse(Path file, Agent agent, String subject, List<Check> checks) {
        try {
            return Optional.of(JsonText.parseObject(Files.readString(file), JsonSyntax.of(agent)));
        } catch (JsonText.InvalidJson e) {
            checks.add(Check.problem(subject, file + " is not a valid JSON object: " + e.getMessage(),
                    "repair the JSON in " + file + ", then run `baton doctor` again"));
        } catch (IOException e) {
            checks.add(Check.problem(subject, "cannot read " + file + ": " + e.getMessage(),
                    "make " + file + " readable by you"));
        }
        return Optional.empty();
    }

    private static String subject(Agent agent, String what) {
        return agent.displayName().split(" ")[0] + " " + what;
    }

    private String installCommand(Agent agent, Scope scope) {
        String command = "baton install " + agent.option() + " --scope " + scope;
        return scope.isProjectBound() ? command + " --project " + HookCommand.shellWord(project.toString()) : command;
    }
}
