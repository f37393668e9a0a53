package dev.baton.http;

import dev.baton.Baton;
import dev.baton.lock.NamedLock;
import dev.baton.lock.NamedLockOutcome;
import dev.baton.session.ProcessAncestry;
import dev.baton.session.ProcessIdentity;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Named locks over HTTP, for {@code baton exclusive NAME -- CMD}. */
final class NamedLockRoutes {

    /** The prefix of the named locks the sidecar takes for itself. */
    static final String RESERVED = "git-index:";

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

    /**
     * The holder is the caller as the kernel names its connection, or a process the caller started; a name that starts
     * with {@value #RESERVED} is Baton's own (the shell checks' index lock per repository).
     */
    private void acquire(Context ctx) {
        AcquireBody body = Bodies.read(ctx, AcquireBody.class);
        if (body.pid() == null) {
            throw BatonException.invalid("pid is required: the process that holds the lock while it runs");
        }
        if (body.name() != null && body.name().startsWith(RESERVED)) {
            throw BatonException.invalid("names starting with '" + RESERVED + "' are Baton's own: it holds one for each"
                    + " repository while a git command writes its index; choose another name");
        }
        ProcessIdentity holder = provenHolder(ctx, SessionRoutes.processOf(body.pid(), body.pidStart()), body.name());
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

    /** Only the holder, or the process that started it, releases a named lock. */
    private void release(Context ctx) {
        ReleaseBody body = Bodies.read(ctx, ReleaseBody.class);
        if (body.pid() == null) {
            throw BatonException.invalid("pid is required: only the holding process releases a named lock");
        }
        Optional<NamedLock> held = baton.namedLocks().list().stream()
                .filter(lock -> lock.name().equals(body.name()) && lock.holder().pid() == body.pid())
                .findFirst();
        if (held.isPresent()) {
            provenHolder(ctx, held.get().holder(), body.name());
        }
        boolean released = baton.namedLocks().release(body.name(), body.pid());
        Bodies.reply(ctx, Map.of("name", body.name(), "released", released));
    }

    /** {@code claimed}, when the kernel shows it is the caller or a process the caller started; else FORBIDDEN. */
    private ProcessIdentity provenHolder(Context ctx, ProcessIdentity claimed, String name) {
        if (!Callers.kernelNamesPeers(ctx)) {
            return claimed; // off Linux the kernel cannot be asked: the pid is taken as sent
        }
        Optional<ProcessIdentity> caller = Callers.process(ctx, claimed.pid(), 0);
        if (caller.isPresent() && ProcessAncestry.descendsFrom(claimed, caller.get())) {
            return claimed;
        }
        baton.sessions().auditRefusal(null, caller.orElse(null), "named lock " + name + " for process " + claimed.pid()
                + ", which it did not start");
        throw new BatonException(ErrorCode.FORBIDDEN, "named lock " + name + ": process " + claimed.pid() + " is not the"
                + " caller (" + caller.map(p -> "pid " + p.pid()).orElse("a process the kernel does not name")
                + ") nor one it started; a named lock is held, and released, by its own process");
    }
}
