package dev.baton.server;

import dev.baton.Baton;
import dev.baton.deadlock.DeadlockSettings;
import dev.baton.deadlock.Deadlocks;
import dev.baton.events.EventSettings;
import dev.baton.events.EventStream;
import dev.baton.http.DeadlockRoutes;
import dev.baton.http.EventRoutes;
import io.javalin.config.RoutesConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** The adapters a production sidecar mounts beside the core API. */
public final class SidecarAdapters {

    private SidecarAdapters() {
    }

    /**
     * The modules adapters call into: the hook endpoint reports denied edits to {@code deadlocks} and
     * asks it for advice; coordination reports negotiations to it and adds its snapshot section to {@code events}.
     */
    public record Modules(Deadlocks deadlocks, EventStream events) {

        /** Configured from {@code env}: BATON_DEADLOCK_POLICY, BATON_DENIED_WAIT_SECONDS, BATON_EVENT_RETENTION, … */
        public static Modules install(Baton baton, Map<String, String> env) {
            Deadlocks deadlocks = Deadlocks.install(baton, DeadlockSettings.fromEnvironment(env));
            return new Modules(deadlocks, EventStream.install(baton, deadlocks, EventSettings.fromEnvironment(env)));
        }
    }

    public static List<Consumer<RoutesConfig>> of(Baton baton) {
        return routes(baton, Modules.install(baton, System.getenv()));
    }

    public static List<Consumer<RoutesConfig>> routes(Baton baton, Modules modules) {
        List<Consumer<RoutesConfig>> routes = new ArrayList<>();
        routes.add(DeadlockRoutes.of(modules.deadlocks()));
        routes.add(EventRoutes.of(modules.events()));
        return routes;
    }
}
