package dev.baton.agent.opencode;

import dev.baton.installer.agents.AgentChecks;
import dev.baton.installer.agents.AgentWiring;
import dev.baton.installer.agents.InstallPlan;
import dev.baton.installer.agents.UninstallPlan;
import dev.baton.installer.config.JsonConfigFile;
import dev.baton.installer.config.JsonSyntax;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * OpenCode: no hook commands but Baton's plug-in ({@link OpenCodePlugin}), which OpenCode loads at start, and Baton's
 * MCP entry in its {@code opencode.json} ({@link OpenCodeConfig}).
 */
public final class OpenCodeWiring implements AgentWiring {

    static final String DISPLAY_NAME = "OpenCode";
    /** OpenCode reads {@code opencode.json} with jsonc-parser, allowTrailingComma. */
    static final JsonSyntax SYNTAX = JsonSyntax.COMMENTS_AND_TRAILING_COMMAS;

    @Override
    public String name() {
        return "opencode";
    }

    @Override
    public String displayName() {
        return DISPLAY_NAME;
    }

    @Override
    public String description() {
        return "OpenCode (a plug-in, no hooks).";
    }

    @Override
    public Path configDir(InstallLayout layout) {
        return directory(layout);
    }

    /** OpenCode's directory in the XDG configuration home ({@code XDG_CONFIG_HOME}, or {@code ~/.config}). */
    static Path directory(InstallLayout layout) {
        return layout.directoryFrom("XDG_CONFIG_HOME").orElse(layout.home().resolve(".config")).resolve("opencode");
    }

    @Override
    public JsonSyntax syntax() {
        return SYNTAX;
    }

    /** Baton's plug-in file, not a JSON file of hooks. */
    @Override
    public Optional<Path> hookFile(InstallLayout layout, Scope scope, Path project) {
        return OpenCodePlugin.file(layout, scope, project);
    }

    @Override
    public void planInstall(Stage stage, InstallPlan plan) throws InstallerException {
        switch (stage) {
            case HOOKS -> {
                Optional<Path> file = hookFile(plan.layout(), plan.scope(), plan.project());
                if (file.isEmpty()) {
                    plan.skip(displayName() + " has no " + plan.scope() + " scope; install it with --scope user or"
                            + " --scope project");
                    return;
                }
                OpenCodePlugin plugin = OpenCodePlugin.of(file.get(), plan.layout().hookScript());
                byte[] current = plugin.current(); // a file of the user's is refused before anything is written
                plan.addWholeFile(dryRun -> plugin.write(current, dryRun));
            }
            case MCP -> {
                Optional<JsonConfigFile> config = OpenCodeConfig.file(plan.layout(), plan.scope(), plan.project());
                if (plan.registerMcp() && config.isPresent()) {
                    plan.json().plan(config.get(),
                            tree -> OpenCodeConfig.addMcp(tree, OpenCodeConfig.mcpEntry(plan.layout().mcpScript())));
                }
            }
            case SETTINGS, CONFIG -> { }
        }
    }

    @Override
    public void planUninstall(Stage stage, UninstallPlan plan) throws InstallerException {
        switch (stage) {
            case HOOKS -> {
                Optional<Path> file = hookFile(plan.layout(), plan.scope(), plan.project());
                if (file.isPresent()) {
                    OpenCodePlugin.of(file.get(), plan.layout().hookScript()).current(); // a file of the user's is refused
                    plan.addOwnedFile(new UninstallPlan.OwnedFile(file.get(), OpenCodePlugin::delete));
                }
            }
            case MCP -> {
                Optional<JsonConfigFile> config = OpenCodeConfig.file(plan.layout(), plan.scope(), plan.project());
                if (config.isPresent()) {
                    plan.json().planRemoval(config.get(), OpenCodeConfig::removeMcp);
                }
            }
            case SETTINGS, CONFIG -> { }
        }
    }

    @Override
    public Optional<String> installNote(InstallLayout layout) {
        return Optional.of("note: OpenCode loads plug-ins when it starts: an OpenCode already running goes on without"
                + " Baton until it is started again.");
    }

    @Override
    public List<Check> diagnose(AgentChecks doctor) {
        return new OpenCodeChecks(this, doctor.layout(), doctor.project())
                .run(command -> doctor.mcpRun(this, command));
    }
}
