package dev.baton.agent.codex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.installer.agents.AgentChecks;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.agents.ShellWrapperChecks;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The doctor's checks of what Codex keeps in {@code ~/.codex/config.toml}: trust for Baton's hooks, Baton's MCP server,
 * and the BASH_ENV that runs Codex's shell commands through Baton's wrapper.
 */
final class CodexChecks {

    private final CodexWiring codex;

    CodexChecks(CodexWiring codex) {
        this.codex = codex;
    }

    List<Check> trust(AgentChecks doctor, List<AgentChecks.Installed> installed) {
        List<Check> checks = new ArrayList<>();
        Path config = CodexWiring.config(doctor.layout());
        for (AgentChecks.Installed entry : installed) {
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
                            + " in " + entry.file(), doctor.installCommand(codex, entry.scope())
                            + ", or trust them in Codex with /hooks"));
        }
        return checks;
    }

    AgentChecks.McpEntry mcp(AgentChecks doctor) {
        InstallLayout layout = doctor.layout();
        Path config = CodexWiring.config(layout);
        try {
            Optional<JsonNode> server = Files.exists(config)
                    ? CodexConfigToml.mcpServer(Files.readString(config)) : Optional.empty();
            if (server.isEmpty()) {
                return new AgentChecks.McpEntry(Check.problem("Codex MCP", "no " + McpRegistration.SERVER
                        + " server in " + config, doctor.installCommand(codex, Scope.USER) + " (without --no-mcp)"),
                        List.of());
            }
            JsonNode expected = CodexConfigToml.mcpServer(CodexConfigToml.withMcpServer("",
                    layout.mcpScript().toAbsolutePath().toString())).orElseThrow();
            for (String key : List.of("command", "args")) {
                if (!expected.get(key).equals(server.get().get(key))) {
                    return new AgentChecks.McpEntry(Check.problem("Codex MCP", "mcp_servers." + McpRegistration.SERVER
                            + " in " + config + " does not run this install's " + HookScript.MCP + " as Baton's MCP"
                            + " server (" + key + ")", doctor.installCommand(codex, Scope.USER)), List.of());
                }
            }
            return new AgentChecks.McpEntry(Check.ok("Codex MCP", "mcp_servers." + McpRegistration.SERVER + " in "
                    + config), AgentChecks.commandLine(expected));
        } catch (IOException e) {
            return new AgentChecks.McpEntry(Check.problem("Codex MCP", "cannot read " + config + ": " + e.getMessage(),
                    "repair " + config), List.of());
        }
    }

    Check shell(InstallLayout layout) {
        String subject = ShellWrapperChecks.subject(codex);
        Path config = CodexWiring.config(layout);
        try {
            String text = Files.exists(config) ? Files.readString(config) : "";
            Optional<String> set = CodexConfigToml.shellEnvironment(text);
            String ours = layout.hookScript().resolveSibling(HookScript.BASH_ENV).toAbsolutePath().toString();
            if (set.isPresent() && set.get().equals(ours)) {
                return Check.ok(subject, "commands run by bash pass through Baton's wrapper (BASH_ENV in "
                        + config + "); a command run by another shell is checked before and after it runs");
            }
            if (set.isPresent()) {
                return new Check(Status.SKIPPED, subject, "predicted only: " + config + " sets BASH_ENV"
                        + " for Codex's commands itself (" + set.get() + ")", "");
            }
            return Check.problem(subject, config + " does not run Codex's commands through Baton's"
                    + " wrapper (no BASH_ENV in shell_environment_policy.set)", "run `baton install --codex` again");
        } catch (IOException e) {
            return Check.problem(subject, "cannot read " + config + ": " + e.getMessage(),
                    "fix the file, then run `baton install --codex` again");
        }
    }
}
