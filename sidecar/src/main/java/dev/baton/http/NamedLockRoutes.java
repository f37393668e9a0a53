package dev.baton.http;

import dev.baton.Baton;
import dev.baton.lock.NamedLockOutcome;
import dev.baton.session.ProcessIdentity;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Named locks over HTTP, for {@code baton exclusive NAME -- CMD}. */
final class NamedLockRoutes {

    record AcquireBody(String name, Long pid, Instant pidStart, String host, String purpose, Integer waitSeconds) {
    }

    record ReleaseBody(String name, Long pid) {
    }

    private final Baton baton;

    NamedLockRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.get("/v1/named-locks", this::list);
        routes.post("/v1/named-locks/acquire", this::acquire);
        routes.post("/v1/named-locks/release", this::release);
    }

    private void list(Context ctx) {
        Bodies.reply(ctx, Map.of("named_locks",
                baton.namedLocks().list().stream().map(lock -> Views.named(baton, lock)).toList()));
    }

    private void acquire(Context ctx) {
        AcquireBody body = Bodies.read(ctx, AcquireBody.class);
        if (body.pid() == null) {
            throw BatonException.invalid("pid is required: the process that holds the lock while it runs");
        }
        ProcessIdentity holder = SessionRoutes.processOf(body.pid(), body.pidStart());
        int wait = body.waitSeconds() == null ? 0 : body.waitSeconds();
        if (wait < 0 || wait > LockRoutes.MAX_WAIT_SECONDS) {
            throw BatonException.invalid("wait_seconds must be between 0 and " + LockRoutes.MAX_WAIT_SECONDS);
        }
        NamedLockOutcome outcome = baton.namedLocks().acquire(body.name(), holder, body.host(), body.purpose(),
                Duration.ofSeconds(wait));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("acquired", outcome.acquired());
        reply.put("lock", Views.named(baton, outcome.lock()));
        Bodies.reply(ctx, reply);
    }

    private void release(Context ctx) {
        ReleaseBody body = Bodies.read(ctx, ReleaseBody.class);
        if (body.pid() == null) {
            throw BatonException.invalid("pid is required: only the holding process releases a named lock");
        }
        boolean released = baton.namedLocks().release(body.name(), body.pid());
        Bodies.reply(ctx, Map.of("name", body.name(), "released", released));
    }
}
