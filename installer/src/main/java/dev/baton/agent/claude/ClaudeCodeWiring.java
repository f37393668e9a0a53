package dev.baton.agent.claude;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.AgentChecks;
import dev.baton.installer.agents.HookEvents;
import dev.baton.installer.agents.HookEvents.EventHook;
import dev.baton.installer.agents.HookedAgent;
import dev.baton.installer.agents.InstallPlan;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.agents.ShellWrapperChecks;
import dev.baton.installer.agents.UninstallPlan;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.doctor.Check.Status;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Claude Code: its hooks in its settings files (every scope), its MCP entry in {@code ~/.claude.json} or the
 * project's {@code .mcp.json}, the permission rule for Baton's MCP tools, and the shell prefix that runs its Bash
 * commands through Baton's wrapper.
 */
public final class ClaudeCodeWiring extends HookedAgent {

    public static final String TOOLS = "Edit|Write|MultiEdit|NotebookEdit|Bash|PowerShell";

    /**
     * Timeouts in seconds. PermissionDenied and PostToolUseFailure end an edit that never happened. The PreToolUse
     * hook, which guards the edit and shell tools, blocks the call whenever it fails: without that, Claude Code runs
     * the tool after a hook that could not start or timed out. The other CLIs have no such setting (Copilot CLI 1.0
     * denies a tool whose preToolUse hook errors on its own; Codex CLI 0.171 and Gemini CLI 0.61 run it), so for them
     * the script's own bound is what makes an edit fail closed. Checked against Claude Code 2.1.
     */
    public static final HookEvents EVENTS = new HookEvents("claude", List.of(
            new EventHook("PreToolUse", TOOLS, 30, true),
            new EventHook("PostToolUse", TOOLS, 30),
            new EventHook("PostToolUseFailure", TOOLS, 30),
            new EventHook("PermissionDenied", TOOLS, 30),
            new EventHook("Stop", null, 30),
            new EventHook("SubagentStop", null, 30),
            new EventHook("SessionStart", null, 30),
            new EventHook("SessionEnd", null, 30)));

    @Override
    public String name() {
        return "claude";
    }

    @Override
    public String displayName() {
        return "Claude Code";
    }

    @Override
    public String description() {
        return "Claude Code (with no agent named: every agent found on this machine).";
    }

    @Override
    public Path configDir(InstallLayout layout) {
        return directory(layout);
    }

    /** {@code CLAUDE_CONFIG_DIR}, or {@code ~/.claude}. */
    static Path directory(InstallLayout layout) {
        return layout.directoryFrom("CLAUDE_CONFIG_DIR").orElse(layout.home().resolve(".claude"));
    }

    /** {@code ~/.claude.json}: Claude Code keeps it beside settings.json when CLAUDE_CONFIG_DIR is set. */
    private static Path stateFile(InstallLayout layout) {
        return layout.directoryFrom("CLAUDE_CONFIG_DIR").map(dir -> dir.resolve(".claude.json"))
                .orElse(layout.home().resolve(".claude.json"));
    }

    /** Claude Code reads its settings, {@code ~/.claude.json} and {@code .mcp.json} with {@code JSON.parse}. */
    @Override
    public JsonSyntax syntax() {
        return JsonSyntax.PLAIN;
    }

    @Override
    public HookEvents events() {
        return EVENTS;
    }

    @Override
    public Optional<Path> hookFile(InstallLayout layout, Scope scope, Path project) {
        return Optional.of(ClaudeSettings.file(layout, scope, project));
    }

    @Override
    public List<McpRegistration.Placement> mcpPlacements(InstallLayout layout, Scope scope, Path project) {
        Optional<String> type = Optional.of("stdio");
        return List.of(switch (scope) {
            // ~/.claude.json also holds Claude Code's own account data: owner-only when Baton creates it.
            case USER -> new McpRegistration.Placement(secretFile(stateFile(layout)), type, false);
            case PROJECT -> new McpRegistration.Placement(sharedFile(project.resolve(".mcp.json")), type, false);
            // Claude Code keeps local-scope servers in ~/.claude.json under the project's absolute path.
            case LOCAL -> new McpRegistration.Placement(secretFile(stateFile(layout)),
                    List.of("projects", project.toString()), type, false);
        });
    }

    @Override
    public void planInstall(Stage stage, InstallPlan plan) throws InstallerException {
        super.planInstall(stage, plan);
        if (stage != Stage.SETTINGS) {
            return;
        }
        JsonConfigFile settings = sharedFile(ClaudeSettings.file(plan.layout(), plan.scope(), plan.project()));
        plan.json().plan(settings, tree -> ClaudeSettings.setShellPrefix(tree, plan.layout().hookScript()));
        if (plan.allowMcpTools()) {
            plan.json().plan(settings, ClaudeSettings::allowMcpTools);
        }
    }

    @Override
    public void planUninstall(Stage stage, UninstallPlan plan) throws InstallerException {
        super.planUninstall(stage, plan);
        if (stage == Stage.SETTINGS) {
            JsonConfigFile settings = sharedFile(ClaudeSettings.file(plan.layout(), plan.scope(), plan.project()));
            plan.json().planRemoval(settings, ClaudeSettings::removeMcpRule);
            plan.json().planRemoval(settings, ClaudeSettings::removeShellPrefix);
        }
    }

    @Override
    public String edit(String session, Path cwd, Path file) {
        ObjectNode payload = HookProbe.hookPayload(session, cwd, "PreToolUse").put("tool_name", "Write")
                .put("tool_use_id", "baton-doctor");
        payload.putObject("tool_input").put("file_path", file.toString()).put("content", "probe\n");
        return payload.toString();
    }

    @Override
    public Map<String, String> environment() {
        return Map.of("CLAUDECODE", "1"); // as Claude Code sets it for its hooks
    }

    /**
     * Claude Code starts a stdio MCP server through its CLAUDE_CODE_SHELL_PREFIX where one is set: the prefix as a
     * program, the server's command line joined by spaces as its one argument.
     */
    @Override
    protected List<String> mcpCommand(List<AgentChecks.Installed> installed, List<String> command) {
        return installed.stream().map(entry -> ClaudeSettings.shellPrefixOf(entry.tree())).flatMap(Optional::stream)
                .findFirst().map(prefix -> List.of(prefix, String.join(" ", command))).orElse(command);
    }

    @Override
    protected List<Check> settingsChecks(List<AgentChecks.Installed> installed) {
        for (AgentChecks.Installed entry : installed) {
            if (ClaudeSettings.allowsMcpTools(entry.tree())) {
                return List.of(Check.ok("Claude MCP rule", ClaudeSettings.MCP_RULE + " allowed in " + entry.file()));
            }
        }
        return List.of(new Check(Status.SKIPPED, "Claude MCP rule", "no settings file allows " + ClaudeSettings.MCP_RULE
                + "; Claude Code asks before each Baton MCP tool and refuses them in -p mode", ""));
    }

    @Override
    protected Optional<Check> shellCheck(InstallLayout layout, Optional<ObjectNode> hooksTree) {
        String subject = ShellWrapperChecks.subject(this);
        if (hooksTree.isEmpty()) {
            return Optional.empty();
        }
        if (ClaudeSettings.hasShellPrefix(hooksTree.get(), layout.hookScript())) {
            return Optional.of(Check.ok(subject, "every Bash command runs through Baton's wrapper ("
                    + ClaudeSettings.SHELL_PREFIX + ")"));
        }
        return Optional.of(Check.problem(subject, "the settings holding Baton's hooks do not set "
                + ClaudeSettings.SHELL_PREFIX + " to Baton's wrapper (" + ClaudeSettings.shellPrefix(layout.hookScript())
                + "): Bash commands are only checked before and after they run", "run `baton install --claude` again"));
    }
}
