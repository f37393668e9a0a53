package dev.baton.http;

import dev.baton.deadlock.Deadlocks;
import io.javalin.config.RoutesConfig;
import java.util.Map;
import java.util.function.Consumer;

/** Open deadlocks over HTTP: {@code GET /v1/deadlocks}. */
public final class DeadlockRoutes {

    private final Deadlocks deadlocks;

    private DeadlockRoutes(Deadlocks deadlocks) {
        this.deadlocks = deadlocks;
    }

    public static Consumer<RoutesConfig> of(Deadlocks deadlocks) {
        return new DeadlockRoutes(deadlocks)::register;
    }

    private void register(RoutesConfig routes) {
        routes.get("/v1/deadlocks", ctx -> Bodies.reply(ctx, Map.of("deadlocks", deadlocks.deadlocks())));
    }
}
