package dev.baton.server;

import dev.baton.Baton;
import dev.baton.mcp.McpEndpoint;
import io.javalin.config.RoutesConfig;
import java.util.List;
import java.util.function.Consumer;

/** The adapters a production sidecar mounts beside the core API. */
public final class SidecarAdapters {

    private SidecarAdapters() {
    }

    public static List<Consumer<RoutesConfig>> of(Baton baton) {
        return List.of(new McpEndpoint(baton)::register);
    }
}
