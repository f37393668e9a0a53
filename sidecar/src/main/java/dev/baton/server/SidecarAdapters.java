package dev.baton.server;

import dev.baton.Baton;
import dev.baton.hook.DeniedEditListener;
import dev.baton.hook.HookRoutes;
import dev.baton.hook.LockScope;
import dev.baton.mcp.McpEndpoint;
import io.javalin.config.RoutesConfig;
import java.util.List;
import java.util.function.Consumer;

/** The adapters a production sidecar mounts beside the core API. */
public final class SidecarAdapters {

    private SidecarAdapters() {
    }

    public static List<Consumer<RoutesConfig>> of(Baton baton) {
        return List.of(
                new McpEndpoint(baton)::register,
                // Hooks: the sidecar's environment configures which paths are never locked:
                // BATON_IGNORE (extra globs, colon-separated) and BATON_LOCK_OUTSIDE_REPOS=1.
                HookRoutes.of(baton, LockScope.fromEnvironment(System.getenv()), baton.notices()::takeNotices,
                        DeniedEditListener.NONE));
    }
}
