package dev.baton.agent.codex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.agents.McpRegistration;
import dev.baton.installer.config.TextConfigFile;
import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.InstallLayout;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What install and uninstall change in Codex's {@code ~/.codex/config.toml}: trust for Baton's Codex hooks as Codex
 * records it, and at user scope the MCP server and the BASH_ENV that runs Codex's shell commands through Baton's
 * wrapper.
 */
final class CodexConfigEdits {

    private CodexConfigEdits() {
    }

    /**
     * @param hooks   the hooks file as the install leaves it
     * @param skipped told what is left out, and why
     */
    static TextConfigFile install(InstallLayout layout, Scope scope, Path hooksFile, ObjectNode hooks,
                                  boolean registerMcp, Consumer<String> skipped) throws InstallerException {
        Path config = CodexWiring.config(layout);
        byte[] before = TextConfigFile.read(config);
        String file = hooksFile.toAbsolutePath().normalize().toString();
        String after = CodexConfigToml.withTrust(TextConfigFile.text(before), file,
                CodexTrust.batonEntries(hooksFile, hooks));
        List<String> changes = new ArrayList<>(List.of("~ trust for Baton's hooks in " + hooksFile.getFileName()));
        if (registerMcp && scope == Scope.USER) {
            after = CodexConfigToml.withMcpServer(after, layout.mcpScript().toAbsolutePath().toString());
            changes.add("~ MCP server " + McpRegistration.SERVER);
        }
        try {
            CodexConfigToml.parse(after);
            if (scope == Scope.USER) {
                Optional<String> conflict = CodexConfigToml.shellEnvironmentConflict(after);
                if (conflict.isPresent()) {
                    skipped.accept("Codex's shell commands through Baton's wrapper: " + config + " "
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
        return new TextConfigFile(config, before, after, changes, false);
    }

    /** Removes Baton's trust entries for this scope's hooks file (and, at user scope, its MCP server and BASH_ENV). */
    static Optional<TextConfigFile> uninstall(InstallLayout layout, Scope scope, Optional<Path> hooksFile)
            throws InstallerException {
        Path config = CodexWiring.config(layout);
        byte[] before = TextConfigFile.read(config);
        if (before == null) {
            return Optional.empty();
        }
        String after = TextConfigFile.text(before);
        List<String> changes = new ArrayList<>();
        if (hooksFile.isPresent()) {
            String removed = CodexConfigToml.withoutTrust(after, hooksFile.get().toAbsolutePath().normalize().toString());
            if (!removed.equals(after)) {
                changes.add("- trust for Baton's hooks in " + hooksFile.get().getFileName());
            }
            after = removed;
        }
        if (scope == Scope.USER) {
            String removed = CodexConfigToml.withoutMcpServer(after);
            if (!removed.equals(after)) {
                changes.add("- MCP server " + McpRegistration.SERVER);
            }
            after = removed;
            removed = CodexConfigToml.withoutShellEnvironment(after);
            if (!removed.equals(after)) {
                changes.add("- BASH_ENV for Codex's shell commands");
            }
            after = removed;
        }
        return Optional.of(new TextConfigFile(config, before, after, changes, false));
    }
}
