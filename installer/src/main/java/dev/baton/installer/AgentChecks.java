package dev.baton.installer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.Doctor.Check;
import dev.baton.installer.Doctor.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The doctor's checks of agent configuration: Baton's hooks and MCP entries for Claude Code and Copilot CLI,
 * at every scope. An agent this machine does not use is skipped rather than reported.
 */
final class AgentChecks {

    private final InstallLayout layout;
    private final Path project;

    AgentChecks(InstallLayout layout, Path project) {
        this.layout = layout;
        this.project = project;
    }

    void addTo(List<Check> checks) {
        boolean claudeUsed = Files.isDirectory(layout.claudeDir()) || Files.exists(layout.claudeJson())
                || Files.exists(ClaudeSettings.file(layout, Scope.PROJECT, project))
                || Files.exists(ClaudeSettings.file(layout, Scope.LOCAL, project));
        boolean copilotUsed = Files.isDirectory(layout.copilotDir())
                || Files.exists(CopilotHooks.file(layout, Scope.PROJECT, project));
        if (claudeUsed) {
            claudeHooks(checks);
            checks.add(mcpEntry(Agent.CLAUDE));
        } else {
            checks.add(new Check(Status.SKIPPED, "Claude Code", "not set up here (no " + layout.claudeDir() + ")", ""));
        }
        if (copilotUsed) {
            copilotHooks(checks);
            checks.add(mcpEntry(Agent.COPILOT));
        } else {
            checks.add(new Check(Status.SKIPPED, "Copilot CLI", "not set up here (no " + layout.copilotDir() + ")", ""));
        }
    }

    private void claudeHooks(List<Check> checks) {
        int complete = 0;
        int partial = 0;
        for (Scope scope : Scope.values()) {
            Path file = ClaudeSettings.file(layout, scope, project);
            if (!Files.exists(file)) {
                continue;
            }
            Optional<ObjectNode> settings = parse(file, "Claude hooks", checks);
            if (settings.isEmpty()) {
                partial++;
                continue;
            }
            List<String> missing = ClaudeSettings.missingEvents(settings.get());
            if (missing.isEmpty()) {
                complete++;
                checks.add(Check.ok("Claude hooks", "all " + ClaudeSettings.EVENTS.size() + " events in " + file));
            } else if (missing.size() < ClaudeSettings.EVENTS.size()) {
                partial++;
                checks.add(Check.problem("Claude hooks", file + " lacks Baton's hook for " + String.join(", ", missing),
                        installCommand(Agent.CLAUDE, scope)));
            } else {
                checks.add(new Check(Status.SKIPPED, "Claude hooks", "none in " + file, ""));
            }
        }
        if (complete == 0 && partial == 0) {
            checks.add(Check.problem("Claude hooks", "no Claude Code settings file holds Baton's hooks",
                    installCommand(Agent.CLAUDE, Scope.USER) + " (or --scope project / local)"));
        }
    }

    private void copilotHooks(List<Check> checks) {
        boolean found = false;
        for (Scope scope : List.of(Scope.USER, Scope.PROJECT)) {
            Path file = CopilotHooks.file(layout, scope, project);
            if (!Files.exists(file)) {
                continue;
            }
            found = true;
            Optional<ObjectNode> document = parse(file, "Copilot hooks", checks);
            if (document.isEmpty()) {
                continue;
            }
            List<String> missing = CopilotHooks.missingEvents(document.get());
            checks.add(missing.isEmpty()
                    ? Check.ok("Copilot hooks", "all " + CopilotHooks.EVENTS.size() + " events in " + file)
                    : Check.problem("Copilot hooks", file + " lacks Baton's hook for " + String.join(", ", missing),
                            installCommand(Agent.COPILOT, scope)));
        }
        if (!found) {
            checks.add(Check.problem("Copilot hooks", "no " + CopilotHooks.FILE_NAME + " in "
                            + CopilotHooks.file(layout, Scope.USER, project).getParent() + " or "
                            + CopilotHooks.file(layout, Scope.PROJECT, project).getParent(),
                    installCommand(Agent.COPILOT, Scope.USER) + " (or --scope project)"));
        }
    }

    private Check mcpEntry(Agent agent) {
        String subject = agent == Agent.CLAUDE ? "Claude MCP" : "Copilot MCP";
        String token;
        SidecarEndpoint endpoint;
        try {
            token = layout.sidecarHome().readToken().orElse("");
            endpoint = SidecarEndpoint.configured(layout);
        } catch (IOException | InstallerException e) {
            return Check.problem(subject, "cannot tell where the sidecar listens: " + e.getMessage(), "see the checks above");
        }
        for (Scope scope : Scope.values()) {
            Target target = new Target(EnumSet.of(agent), scope, project);
            for (McpRegistration.Placement placement : McpRegistration.placements(layout, target)) {
                Optional<JsonNode> entry = findEntry(placement);
                if (entry.isEmpty()) {
                    continue;
                }
                JsonNode expected = McpRegistration.entry(placement, endpoint, token);
                String where = placement.describe() + " in " + placement.file().path();
                // Only the address and the credential matter; other keys may have been tuned by the user.
                if (sameAt(entry.get(), expected, "/url") && sameAt(entry.get(), expected, "/headers/Authorization")) {
                    return Check.ok(subject, where);
                }
                return Check.problem(subject, where + " does not match the sidecar's current address or token",
                        installCommand(agent, scope));
            }
        }
        return Check.problem(subject, "no " + McpRegistration.SERVER + " server registered",
                installCommand(agent, Scope.USER) + " (without --no-mcp)");
    }

    private static boolean sameAt(JsonNode actual, JsonNode expected, String pointer) {
        return actual.at(pointer).equals(expected.at(pointer));
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

    private static Optional<ObjectNode> parse(Path file, String subject, List<Check> checks) {
        try {
            return Optional.of(JsonText.parseObject(Files.readString(file)));
        } catch (JsonText.InvalidJson e) {
            checks.add(Check.problem(subject, file + " is not a valid JSON object: " + e.getMessage(),
                    "repair the JSON in " + file + ", then run `baton doctor` again"));
        } catch (IOException e) {
            checks.add(Check.problem(subject, "cannot read " + file + ": " + e.getMessage(),
                    "make " + file + " readable by you"));
        }
        return Optional.empty();
    }

    private String installCommand(Agent agent, Scope scope) {
        String command = "baton install --" + agent.name().toLowerCase(Locale.ROOT) + " --scope " + scope;
        return scope.isProjectBound() ? command + " --project " + HookCommand.shellWord(project.toString()) : command;
    }
}
