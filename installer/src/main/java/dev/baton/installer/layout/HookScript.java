package dev.baton.installer.layout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hook script the agents run, and the scripts installed beside it (by name): {@value #MCP}, Baton's MCP server
 * over stdio; {@value #SIDECAR} and {@value #SIDECAR_START}, which both source to find, verify, start and talk to the
 * sidecar; {@value #SHELL_WRAPPER}, which runs a shell command where the files other sessions hold are read-only; and
 * {@value #BASH_ENV}, which bash reads before each command Codex CLI runs. Shipped as classpath resources by the
 * hook-scripts module; opaque bytes here.
 */
public record HookScript(byte[] content, Map<String, byte[]> companions) {

    public static final String RESOURCE = "dev/baton/hook/baton-hook";
    public static final String MCP = "baton-mcp";
    public static final String SIDECAR = "baton-sidecar.bash";
    public static final String SIDECAR_START = "baton-sidecar-start.bash";
    /** What older installs put beside the hook script to bind held files read-only: now part of the wrapper. */
    public static final String OLD_GUARD = "baton-guard";
    public static final String BASH_ENV = "baton-bash-env";

    /**
     * The hook script's option that older installs named Claude Code's CLAUDE_CODE_SHELL_PREFIX with ({@code
     * baton-hook --shell COMMAND}); the script hands such a call to {@value #SHELL_WRAPPER}.
     */
    public static final String SHELL_OPTION = "--shell";

    /**
     * The wrapper of the agents' shell commands, a program beside the hook script (compiled, so no interpreter starts
     * in front of every command): Claude Code starts its CLAUDE_CODE_SHELL_PREFIX as one program, with no arguments
     * of its own, for its stdio MCP servers.
     */
    public static final String SHELL_WRAPPER = "baton-shell";

    /** Every script installed beside the hook script. */
    public static final List<String> COMPANIONS = List.of(MCP, SIDECAR, SIDECAR_START, SHELL_WRAPPER, BASH_ENV);

    public HookScript(byte[] content) {
        this(content, Map.of());
    }

    public HookScript {
        companions = Map.copyOf(companions);
    }

    /** What a script installed beside the hook script is for, as the install's output names it. */
    public static String role(String companion) {
        return switch (companion) {
            case MCP -> "MCP server";
            case SIDECAR, SIDECAR_START -> "sidecar client the scripts source";
            case SHELL_WRAPPER -> "shell wrapper";
            case BASH_ENV -> "bash start-up file for Codex's commands";
            default -> "script beside the hook script";
        };
    }

    /** The script packaged with this build. */
    public static HookScript packaged() throws InstallerException {
        try (InputStream in = HookScript.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new InstallerException("This build of Baton lacks its hook script (classpath resource "
                        + RESOURCE + "). Rebuild it with the hook-scripts module, e.g. mvn -B package.");
            }
            byte[] content = in.readAllBytes();
            Map<String, byte[]> companions = new LinkedHashMap<>();
            for (String name : COMPANIONS) {
                try (InputStream companion = HookScript.class.getClassLoader().getResourceAsStream("dev/baton/hook/" + name)) {
                    if (companion == null) {
                        throw new InstallerException("This build of Baton lacks dev/baton/hook/" + name
                                + ". Rebuild it with the hook-scripts module, e.g. mvn -B package.");
                    }
                    companions.put(name, companion.readAllBytes());
                }
            }
            return new HookScript(content, companions);
        } catch (IOException e) {
            throw new InstallerException("Cannot read the packaged hook script " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
