package dev.baton.installer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.AgentFiles;
import dev.baton.installer.agents.ClaudeSettings;
import dev.baton.installer.agents.CodexConfigToml;
import dev.baton.installer.agents.CodexTrust;
import dev.baton.installer.agents.CopilotHooks;
import dev.baton.installer.agents.GroupedHooks;
import dev.baton.installer.agents.HookEvents;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.agents.OpenCodeConfig;
import dev.baton.installer.agents.OpenCodePlugin;
import dev.baton.installer.config.ConfigEdits;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonEdits;
import dev.baton.installer.config.PlannedEdit;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.Agent;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.layout.Target;
import dev.baton.installer.program.ProgramFiles;
import dev.baton.installer.program.ProgramSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code baton install}: puts the program files in place, then merges Baton's hooks and MCP server into
 * the agents' configuration. Every file is read and checked before the first one is written.
 */
public final class Installer {

    private final InstallLayout layout;
    private final HookScript script;
    private final ProgramSource program;
    private final PrintWriter out;
    private final PrintWriter err;

    public Installer(InstallLayout layout, HookScript script, ProgramSource program, PrintWriter out, PrintWriter err) {
        this.layout = layout;
        this.script = script;
        this.program = program;
        this.out = out;
        this.err = err;
    }

    /** Installs with the MCP server and Claude Code's permission rule for it. */
    public int install(Target target, boolean dryRun, boolean registerMcp) throws InstallerException {
        return install(target, dryRun, registerMcp, registerMcp);
    }

    /** Installs for the target and returns the exit code (0); refusals and write failures are thrown. */
    public int install(Target target, boolean dryRun, boolean registerMcp, boolean allowMcpTools) throws InstallerException {
        out.println((dryRun ? "Dry run, nothing is written. " : "") + "Installing Baton for "
                + target.describeAgents() + " at " + target.scope() + " scope"
                + (target.scope().isProjectBound() ? " in " + target.project() : "") + ".");
        JsonEdits json = new JsonEdits();
        List<TextConfigFile> texts = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Map<OpenCodePlugin, byte[]> plugins = new LinkedHashMap<>();
        planHooks(target, json, skipped, plugins);
        if (target.includes(Agent.CLAUDE) && Files.isExecutable(HookScript.SHELL_INTERPRETER)) {
            json.plan(JsonConfigFile.shared(ClaudeSettings.file(layout, target.scope(), target.project()), Agent.CLAUDE),
                    tree -> ClaudeSettings.setShellPrefix(tree, layout.hookScript()));
        } else if (target.includes(Agent.CLAUDE)) {
            skipped.add("  skipped           Claude Code's shell commands through Baton's wrapper: it runs with "
                    + HookScript.SHELL_INTERPRETER + ", which this machine lacks (Baton still checks each command before"
                    + " and after it runs)");
        }
        if (allowMcpTools && target.includes(Agent.CLAUDE)) {
            json.plan(JsonConfigFile.shared(ClaudeSettings.file(layout, target.scope(), target.project()), Agent.CLAUDE),
                    ClaudeSettings::allowMcpTools);
        }
        if (registerMcp) {
            for (McpRegistration.Placement placement : McpRegistration.placements(layout, target)) {
                ObjectNode entry = McpRegistration.entry(placement, layout.mcpScript());
                json.plan(placement.file(), tree -> McpRegistration.add(tree, placement, entry));
            }
            Optional<JsonConfigFile> opencode = OpenCodeConfig.file(layout, target.scope(), target.project());
            if (target.includes(Agent.OPENCODE) && opencode.isPresent()) {
                json.plan(opencode.get(), tree -> OpenCodeConfig.addMcp(tree, OpenCodeConfig.mcpEntry(layout.mcpScript())));
            }
        }
        if (target.includes(Agent.CODEX)) {
            planCodexConfig(target, json, registerMcp, skipped).ifPresent(texts::add);
        }
        try {
            if (!dryRun) {
                prepareHome();
            }
            new ProgramFiles(layout).install(script, program, dryRun).forEach(out::println);
            ConfigEdits.apply(json.edits(), dryRun, out);
            for (Map.Entry<OpenCodePlugin, byte[]> plugin : plugins.entrySet()) {
                out.println(plugin.getKey().write(plugin.getValue(), dryRun));
            }
            for (TextConfigFile text : texts) {
                out.println(text.apply(dryRun));
            }
        } catch (IOException e) {
            throw ConfigEdits.writeFailure(e);
        }
        skipped.forEach(out::println);
        printNotes(target);
        out.flush();
        err.flush();
        return 0;
    }

    /** @param plugins OpenCode's plug-in files to write, with what each holds now */
    private void planHooks(Target target, JsonEdits json, List<String> skipped, Map<OpenCodePlugin, byte[]> plugins)
            throws InstallerException {
        for (Agent agent : target.agents()) {
            Optional<Path> file = AgentFiles.hookFile(layout, agent, target.scope(), target.project());
            if (file.isEmpty()) {
                skipped.add("  skipped           " + agent.displayName() + " has no " + target.scope()
                        + " scope; install it with --scope user or --scope project");
                continue;
            }
            if (agent == Agent.OPENCODE) {
                OpenCodePlugin plugin = OpenCodePlugin.of(file.get(), layout.hookScript());
                plugins.put(plugin, plugin.current());
            } else if (agent == Agent.COPILOT) {
                JsonConfigFile hooks = JsonConfigFile.owned(file.get());
                JsonConfigFile.Snapshot before = readLeniently(hooks);
                ObjectNode after = CopilotHooks.document(layout.hookScript());
                List<String> changes = List.of((before.exists() ? "~ " : "+ ") + "hooks for "
                        + String.join(", ", CopilotHooks.EVENTS.stream().map(HookEvents.EventHook::event).toList()));
                json.add(new PlannedEdit(hooks, before, after, changes));
            } else {
                json.plan(JsonConfigFile.shared(file.get(), agent),
                        tree -> GroupedHooks.addHooks(tree, HookEvents.of(agent), layout.hookScript()));
            }
        }
    }

    /**
     * Trust for Baton's Codex hooks as Codex records it, and at user scope the MCP server and the BASH_ENV that runs
     * Codex's shell commands through Baton's wrapper, in ~/.codex/config.toml.
     */
    private Optional<TextConfigFile> planCodexConfig(Target target, JsonEdits json, boolean registerMcp,
                                                     List<String> skipped) throws InstallerException {
        Optional<Path> hooksFile = AgentFiles.hookFile(layout, Agent.CODEX, target.scope(), target.project());
        if (hooksFile.isEmpty()) {
            return Optional.empty();
        }
        Path config = AgentFiles.codexConfig(layout);
        byte[] before = TextConfigFile.read(config);
        ObjectNode hooks = json.after(hooksFile.get());
        String file = hooksFile.get().toAbsolutePath().normalize().toString();
        String after = CodexConfigToml.withTrust(TextConfigFile.text(before), file,
                CodexTrust.batonEntries(hooksFile.get(), hooks));
        List<String> changes = new ArrayList<>(List.of("~ trust for Baton's hooks in " + hooksFile.get().getFileName()));
        if (registerMcp && target.scope() == Scope.USER) {
            after = CodexConfigToml.withMcpServer(after, layout.mcpScript().toAbsolutePath().toString());
            changes.add("~ MCP server " + McpRegistration.SERVER);
        }
        try {
            CodexConfigToml.parse(after);
            if (target.scope() == Scope.USER) {
                Optional<String> conflict = CodexConfigToml.shellEnvironmentConflict(after);
                if (conflict.isPresent()) {
                    skipped.add("  skipped           Codex's shell commands through Baton's wrapper: " + config + " "
                            + conflict.get() + "; Baton checks them before and after they run (see `baton doctor`)");
                } else {
                    after = CodexConfigToml.withShellEnvironment(after,
                            layout.hookScript().resolveSibling(HookScript.BASH_ENV).toAbsolutePath().toString());
                    changes.add("~ BASH_ENV for Codex's shell commands (through Baton's shell wrapper)");
                }
            }
        } catch (IOException e) {
            throw new InstallerException("Refusing to edit " + config + ": it is not valid TOML (" + e.getMessage()
                    + "). Fix it, then run the command again; nothing was changed.", e);
        }
        return Optional.of(new TextConfigFile(config, before, after, changes, false));
    }

    /** Baton's own hook file is rewritten whatever it holds; parsing it only serves to skip identical rewrites. */
    private static JsonConfigFile.Snapshot readLeniently(JsonConfigFile file) throws InstallerException {
        try {
            return file.read();
        } catch (InstallerException e) {
            return file.readUnparsed();
        }
    }

    /** BATON_HOME and its token, as the sidecar makes them (one code, in BatonHome), so both exist from install on. */
    private void prepareHome() throws InstallerException {
        try {
            layout.sidecarHome().ensureToken();
        } catch (IOException e) {
            throw new InstallerException("Cannot use " + layout.batonHome() + " as BATON_HOME: " + e.getMessage()
                    + ". Nothing was changed.", e);
        }
    }

    private void printNotes(Target target) {
        if (!layout.binDirOnPath()) {
            err.println("note: " + layout.binDir() + " is not on PATH. The hooks do not need it (they start the sidecar"
                    + " with " + layout.hookLauncher() + "), but to run `baton` yourself add this line to your shell"
                    + " profile: export PATH=\"" + layout.binDir() + ":$PATH\"");
        }
        if (target.includes(Agent.CODEX)) {
            out.println("note: Codex runs only hooks it trusts; Baton recorded its trust in "
                    + AgentFiles.codexConfig(layout) + " the way Codex does (check with `baton doctor`, or in Codex's"
                    + " /hooks). A project's .codex directory is read only in a project Codex trusts.");
        }
        if (target.includes(Agent.OPENCODE)) {
            out.println("note: OpenCode loads plug-ins when it starts: an OpenCode already running goes on without Baton"
                    + " until it is started again.");
        }
        if (target.includes(Agent.GEMINI)) {
            out.println("note: Gemini CLI runs hooks only in a trusted folder: trust the project when Gemini asks, or"
                    + " run `gemini` there and use /permissions, or set GEMINI_CLI_TRUST_WORKSPACE=true for headless runs.");
        }
    }
}
