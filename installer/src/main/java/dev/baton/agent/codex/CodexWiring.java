package dev.baton.agent.codex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.AgentChecks;
import dev.baton.installer.agents.HookEvents;
import dev.baton.installer.agents.HookEvents.EventHook;
import dev.baton.installer.agents.HookedAgent;
import dev.baton.installer.agents.InstallPlan;
import dev.baton.installer.agents.UninstallPlan;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.doctor.HookProbe;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * OpenAI Codex CLI: its hooks in {@code hooks.json} (the user's or the project's), and in its {@code config.toml} the
 * trust for them, Baton's MCP server and the BASH_ENV of its shell commands ({@link CodexConfigEdits}).
 */
public final class CodexWiring extends HookedAgent {

    public static final String TOOLS = "apply_patch|Edit|Write|Bash|exec_command|shell|local_shell";

    /**
     * Timeouts in seconds; Codex clamps a SessionEnd hook to 3 s. Codex 0.169 has no failure or permission-denied
     * event (it ignores those names), so Stop ends whatever edit did not complete.
     */
    public static final HookEvents EVENTS = new HookEvents("codex", List.of(
            new EventHook("PreToolUse", TOOLS, 30),
            new EventHook("PostToolUse", TOOLS, 30),
            new EventHook("Stop", null, 30),
            new EventHook("SessionStart", null, 30),
            new EventHook("SessionEnd", null, 3)));

    /** What Codex gives every MCP server it starts, besides the variables its entry names. */
    private static final Set<String> MCP_BASICS = Set.of("HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG",
            "LC_ALL", "TERM", "TMPDIR", "TZ");

    private final CodexChecks checks = new CodexChecks(this);

    /** Codex's user configuration, where it records which hooks the user trusts. */
    public static Path config(InstallLayout layout) {
        return directory(layout).resolve("config.toml");
    }

    @Override
    public String name() {
        return "codex";
    }

    @Override
    public String displayName() {
        return "Codex CLI";
    }

    @Override
    public String description() {
        return "OpenAI Codex CLI.";
    }

    @Override
    public Path configDir(InstallLayout layout) {
        return directory(layout);
    }

    /** {@code CODEX_HOME}, or {@code ~/.codex}. */
    static Path directory(InstallLayout layout) {
        return layout.directoryFrom("CODEX_HOME").orElse(layout.home().resolve(".codex"));
    }

    /** Codex reads {@code hooks.json} with serde_json. */
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
        return switch (scope) {
            case USER -> Optional.of(directory(layout).resolve("hooks.json"));
            case PROJECT -> Optional.of(project.resolve(".codex/hooks.json"));
            case LOCAL -> Optional.empty();
        };
    }

    @Override
    public void planInstall(Stage stage, InstallPlan plan) throws InstallerException {
        super.planInstall(stage, plan);
        Optional<Path> hooksFile = hookFile(plan.layout(), plan.scope(), plan.project());
        if (stage == Stage.CONFIG && hooksFile.isPresent()) {
            ObjectNode hooks = plan.json().after(hooksFile.get());
            plan.addText(CodexConfigEdits.install(plan.layout(), plan.scope(), hooksFile.get(), hooks,
                    plan.registerMcp(), plan::skip));
        }
    }

    @Override
    public void planUninstall(Stage stage, UninstallPlan plan) throws InstallerException {
        super.planUninstall(stage, plan);
        if (stage == Stage.CONFIG) {
            CodexConfigEdits.uninstall(plan.layout(), plan.scope(), hookFile(plan.layout(), plan.scope(), plan.project()))
                    .ifPresent(plan::addText);
        }
    }

    @Override
    public Optional<String> installNote(InstallLayout layout) {
        return Optional.of("note: Codex runs only hooks it trusts; Baton recorded its trust in " + config(layout)
                + " the way Codex does (check with `baton doctor`, or in Codex's /hooks). A project's .codex directory"
                + " is read only in a project Codex trusts.");
    }

    @Override
    public String edit(String session, Path cwd, Path file) {
        ObjectNode payload = HookProbe.hookPayload(session, cwd, "PreToolUse").put("turn_id", "baton-doctor")
                .put("model", "probe").put("tool_name", "apply_patch").put("tool_use_id", "baton-doctor");
        payload.putObject("tool_input").put("command", "*** Begin Patch\n*** Add File: " + file + "\n+probe\n*** End Patch\n");
        return payload.toString();
    }

    @Override
    protected List<Check> trustChecks(AgentChecks doctor, List<AgentChecks.Installed> complete) {
        return checks.trust(doctor, complete);
    }

    @Override
    protected AgentChecks.McpEntry mcpEntry(AgentChecks doctor) {
        return checks.mcp(doctor);
    }

    @Override
    protected boolean passesToMcp(String variable) {
        return MCP_BASICS.contains(variable) || CodexConfigToml.MCP_VARIABLES.contains(variable);
    }

    @Override
    protected Optional<Check> shellCheck(InstallLayout layout, Optional<ObjectNode> hooksTree) {
        return Optional.of(checks.shell(layout));
    }
}
