package dev.baton.server;

import dev.baton.Baton;
import dev.baton.agent.AgentDialects;
import dev.baton.deadlock.DeadlockSettings;
import dev.baton.deadlock.Deadlocks;
import dev.baton.deadlock.WaitSharing;
import dev.baton.events.EventSettings;
import dev.baton.events.EventStream;
import dev.baton.hook.HookRoutes;
import dev.baton.hook.LockScope;
import dev.baton.http.DeadlockRoutes;
import dev.baton.http.EventRoutes;
import dev.baton.mcp.McpEndpoint;
import io.javalin.config.RoutesConfig;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The adapters a production sidecar mounts beside the core API, and the modules they share. */
public final class SidecarAdapters {

    private SidecarAdapters() {
    }

    /**
     * The modules adapters call into: the hook endpoint reports denied edits to {@code deadlocks} and
     * asks it for advice; coordination reports negotiations to it and adds its snapshot section to {@code events}.
     */
    public record Modules(Deadlocks deadlocks, EventStream events, LockScope lockScope) {

        /**
         * Configured from {@code env}: BATON_DEADLOCK_POLICY, BATON_DENIED_WAIT_SECONDS, BATON_EVENT_RETENTION, …,
         * and for hooks the paths never locked: BATON_IGNORE (extra globs, colon-separated) and
         * BATON_LOCK_OUTSIDE_REPOS=1.
         */
        public static Modules install(Baton baton, Map<String, String> env) {
            Deadlocks deadlocks = Deadlocks.install(baton, DeadlockSettings.fromEnvironment(env));
            ModuleBridges.negotiationsAsWaits(baton, deadlocks);
            if (baton.sharedLockSpace() instanceof WaitSharing team) {
                team.shareWaitsOf(deadlocks);
            }
            EventStream events = EventStream.install(baton, deadlocks, EventSettings.fromEnvironment(env));
            ModuleBridges.negotiationsInSnapshot(baton, events);
            return new Modules(deadlocks, events, LockScope.fromEnvironment(env));
        }
    }

    public static List<Consumer<RoutesConfig>> of(Baton baton) {
        return routes(baton, Modules.install(baton, System.getenv()));
    }

    public static List<Consumer<RoutesConfig>> routes(Baton baton, Modules modules) {
        return List.of(
                new McpEndpoint(baton)::register,
                HookRoutes.of(baton, AgentDialects.ALL, modules.lockScope(), ModuleBridges.notices(baton, modules.deadlocks()),
                        ModuleBridges.deniedEditsAsWaits(modules.deadlocks())),
                DeadlockRoutes.of(modules.deadlocks()),
                EventRoutes.of(modules.events()));
    }
}
