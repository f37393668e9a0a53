package dev.baton.http;

import dev.baton.Baton;
import dev.baton.git.RepoRoot;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.AgentKind;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registered;
import dev.baton.session.Registration;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Sessions over HTTP: register, heartbeat, list, end. */
final class SessionRoutes {

    record RegisterBody(String sessionId, String agent, Long pid, Instant pidStart, String host, String cwd,
                        String repoRoot, String name, String parentId) {
    }

    private final Baton baton;

    SessionRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/sessions", this::registerSession);
        routes.get("/v1/sessions", this::list);
        routes.get("/v1/sessions/{id}", this::get);
        routes.post("/v1/sessions/{id}/heartbeat", this::heartbeat);
        routes.delete("/v1/sessions/{id}", this::end);
    }

    private void registerSession(Context ctx) {
        RegisterBody body = Bodies.read(ctx, RegisterBody.class);
        AgentKind agent = body.agent() == null ? AgentKind.API : AgentKind.fromWireName(body.agent())
                .orElseThrow(() -> BatonException.invalid("unknown agent '" + body.agent() + "'; one of: " + AgentKind.allWireNames()));
        ProcessIdentity process = processOf(body.pid(), body.pidStart());
        String cwd = absoluteOrNull(body.cwd(), "cwd");
        String repoRoot = absoluteOrNull(body.repoRoot(), "repo_root");
        if (repoRoot == null && cwd != null) {
            repoRoot = RepoRoot.of(Path.of(cwd)).map(Path::toString).orElse(null);
        }
        if (body.sessionId() != null && baton.sessions().find(body.sessionId()).isPresent()) {
            Callers.verify(baton, ctx, body.sessionId()); // refreshing a session is acting for it
        }
        Registered registered = baton.sessions().register(new Registration(body.sessionId(), agent, process,
                body.host(), cwd, repoRoot, body.name(), body.parentId()));
        Map<String, Object> reply = new java.util.LinkedHashMap<>();
        reply.put("session", view(registered.session()));
        reply.put("created", registered.created());
        if (registered.key() != null) {
            reply.put("key", registered.key());
        }
        Bodies.reply(ctx, registered.created() ? 201 : 200, reply);
    }

    static ProcessIdentity processOf(Long pid, Instant pidStart) {
        if (pid == null) {
            return null;
        }
        if (pid <= 0) {
            throw BatonException.invalid("pid must be positive, was " + pid);
        }
        if (pidStart != null) {
            return new ProcessIdentity(pid, pidStart);
        }
        ProcessIdentity running = ProcessIdentity.ofRunning(pid);
        if (running == null) {
            throw BatonException.invalid("process " + pid + " is not running; register with the pid of a live process");
        }
        return running;
    }

    static String absoluteOrNull(String path, String field) {
        if (path == null) {
            return null;
        }
        if (path.isBlank() || path.indexOf('\0') >= 0 || !path.startsWith("/")) {
            throw BatonException.invalid(field + " must be an absolute path, was '" + path.replace("\0", "\\0") + "'");
        }
        try {
            return Path.of(path).normalize().toString();
        } catch (InvalidPathException e) { // an unpaired surrogate from a JSON escape cannot be a file name
            throw BatonException.invalid(field + " is not a valid path: " + e.getReason());
        }
    }

    private void list(Context ctx) {
        List<Views.SessionView> sessions = baton.ledger().read(world -> world.sessions().stream()
                .sorted(java.util.Comparator.comparing(Session::startedAt).thenComparing(Session::id))
                .map(s -> Views.session(baton, world, s))
                .toList());
        Bodies.reply(ctx, Map.of("sessions", sessions));
    }

    private void get(Context ctx) {
        Session session = baton.sessions().get(ctx.pathParam("id"));
        Bodies.reply(ctx, view(session));
    }

    private void heartbeat(Context ctx) {
        Session session = baton.sessions().heartbeat(ctx.pathParam("id"));
        Bodies.reply(ctx, view(session));
    }

    /** Ending a session is its own call (its key, or its agent's process) or the supervisor's, who is audited as such. */
    private void end(Context ctx) {
        String id = ctx.pathParam("id");
        String actor = Supervisor.is(ctx) ? Supervisor.actor(ctx, ctx.queryParam("actor")) : null;
        if (actor == null) {
            Callers.verify(baton, ctx, id);
        }
        List<String> released = baton.ledger().write(tx -> {
            Session session = tx.world().session(id).orElseThrow(() -> BatonException.notFound(
                    "session " + id + " is not registered (it may have ended already)"));
            return baton.locks().endSession(tx, session, ReleaseReason.SESSION_ENDED, actor);
        });
        Bodies.reply(ctx, Map.of("session_id", id, "released", released));
    }

    private Views.SessionView view(Session session) {
        return baton.ledger().read(world -> Views.session(baton, world, session));
    }
}
