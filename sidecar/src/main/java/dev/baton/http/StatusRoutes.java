package dev.baton.http;

import dev.baton.Baton;
import dev.baton.BatonVersion;
import dev.baton.lock.LockRows;
import dev.baton.session.SessionRows;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Health (the only unauthenticated route) and the status overview. */
final class StatusRoutes {

    private final Baton baton;
    private final Instant startedAt;

    StatusRoutes(Baton baton, Instant startedAt) {
        this.baton = baton;
        this.startedAt = startedAt;
    }

    void register(RoutesConfig routes) {
        routes.get("/v1/health", this::health);
        routes.get("/v1/status", this::status);
    }

    private void health(Context ctx) {
        Bodies.reply(ctx, Map.of("status", "ok", "version", BatonVersion.VERSION, "pid", ProcessHandle.current().pid()));
    }

    private void status(Context ctx) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("version", BatonVersion.VERSION);
        reply.put("pid", ProcessHandle.current().pid());
        reply.put("started_at", startedAt);
        reply.put("store", baton.ledger().store().describe());
        reply.put("heartbeat_ttl_seconds", baton.liveness().heartbeatTtl().toSeconds());
        baton.ledger().read(world -> {
            reply.put("sessions", world.rows(SessionRows.SESSIONS).size());
            reply.put("locks", world.count(LockRows.FILES));
            reply.put("named_locks", world.rows(LockRows.NAMED).size());
            return null;
        });
        Bodies.reply(ctx, reply);
    }
}
