package dev.baton.installer;

import java.io.IOException;
import java.io.InputStream;

/** The hook script the agents run, shipped as a classpath resource by the hook-scripts module; opaque bytes here. */
public record HookScript(byte[] content) {

    public static final String RESOURCE = "dev/baton/hook/baton-hook";

    /**
     * The event of no agent that makes the script Baton's MCP server over stdio ({@code baton-hook AGENT Mcp}): it
     * passes each JSON-RPC message on to the sidecar's {@code /mcp} endpoint, starting the sidecar if none runs.
     */
    public static final String MCP_EVENT = "Mcp";

    /** The script packaged with this build. */
    public static HookScript packaged() throws InstallerException {
        try (InputStream in = HookScript.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new InstallerException("This build of Baton lacks its hook script (classpath resource "
                        + RESOURCE + "). Rebuild it with the hook-scripts module, e.g. mvn -B package.");
            }
            return new HookScript(in.readAllBytes());
        } catch (IOException e) {
            throw new InstallerException("Cannot read the packaged hook script " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
