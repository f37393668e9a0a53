package dev.baton.http;

import dev.baton.Baton;
import dev.baton.git.RepoRoot;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.AgentKind;
import dev.baton.session.AgentKinds;
import dev.baton.session.ProcessAncestry;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registered;
import dev.baton.session.Registration;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Sessions over HTTP: register, heartbeat, list, end. */
final class SessionRoutes {

    record RegisterBody(String sessionId, String agent, Long pid, Instant pidStart, String host, String cwd,
                        String repoRoot, String name, String parentId) {
    }

    /** Ids of terminals' CLI sessions, found by the shell's process; the rest of such an id is random. */
    static final String CLI_PREFIX = "cli-";

    private final Baton baton;
    private final AgentKinds kinds;

    /** @param kinds the kinds a registration may name */
    SessionRoutes(Baton baton, AgentKinds kinds) {
        this.baton = baton;
        this.kinds = kinds;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/sessions", this::registerSession);
        routes.get("/v1/sessions", this::list);
        routes.get("/v1/sessions/{id}", this::get);
        routes.post("/v1/sessions/{id}/heartbeat", this::heartbeat);
        routes.delete("/v1/sessions/{id}", this::end);
    }

    /**
     * Every claim is checked against what the sidecar can verify: the agent process must be the caller itself (the
     * kernel's view of the connection), a process it started, or for a terminal's CLI session its shell (the caller's
     * parent); a parent session must be proven like any act for it (its key, or a call from below its agent); a
     * subagent's {@code PARENT/AGENT} id is made only by the parent's own hook calls. Off Linux the kernel cannot be
     * asked and a pid is taken as sent.
     */
    private void registerSession(Context ctx) {
        RegisterBody body = Bodies.read(ctx, RegisterBody.class);
        AgentKind agent = body.agent() == null ? AgentKind.API : kinds.fromWireName(body.agent())
                .orElseThrow(() -> BatonException.invalid("unknown agent '" + body.agent() + "'; one of: " + kinds.allWireNames()));
        if (body.sessionId() != null && body.sessionId().contains("/")) {
            throw BatonException.invalid("session id '" + HumanText.oneLine(body.sessionId()) + "' has a '/': such ids"
                    + " are subagents' (PARENT/AGENT), which Baton registers from the parent's own hook calls; choose"
                    + " another id, or give parent_id for a session of your own inside a parent you can act for");
        }
        ProcessIdentity process = provenProcess(ctx, body, agent);
        String cwd = absoluteOrNull(body.cwd(), "cwd");
        String repoRoot = absoluteOrNull(body.repoRoot(), "repo_root");
        if (repoRoot == null && cwd != null) {
            repoRoot = RepoRoot.of(Path.of(cwd)).map(Path::toString).orElse(null);
        }
        if (body.parentId() != null) {
            Callers.verify(baton, ctx, body.parentId()); // a subagent shares its parent's files: acting for the parent
        }
        if (body.sessionId() != null && baton.sessions().find(body.sessionId()).isPresent()) {
            Callers.verify(baton, ctx, body.sessionId()); // refreshing a session is acting for it
        }
        Registration registration = new Registration(body.sessionId(), agent, process, body.host(), cwd, repoRoot,
                body.name(), body.parentId());
        // A terminal's CLI session is its shell's: found by that process, else made under an id no one can guess.
        Registered registered = body.sessionId() == null && agent.equals(AgentKind.CLI) && process != null
                && body.parentId() == null
                ? baton.sessions().registerForProcess(CLI_PREFIX, registration)
                : baton.sessions().register(registration);
        Map<String, Object> reply = new java.util.LinkedHashMap<>();
        reply.put("session", view(registered.session()));
        reply.put("created", registered.created());
        if (registered.key() != null) {
            reply.put("key", registered.key());
        }
        Bodies.reply(ctx, registered.created() ? 201 : 200, reply);
    }

    /** The agent process a registration names, once the kernel has shown the caller may name it; null for none. */
    private ProcessIdentity provenProcess(Context ctx, RegisterBody body, AgentKind agent) {
        ProcessIdentity claimed = processOf(body.pid(), body.pidStart());
        if (claimed == null || !Callers.kernelNamesPeers(ctx)) {
            return claimed;
        }
        Optional<ProcessIdentity> caller = Callers.process(ctx, claimed.pid(), 0);
        boolean own = caller.isPresent() && (ProcessAncestry.descendsFrom(claimed, caller.get())
                || agent.equals(AgentKind.CLI) && isParentOf(claimed, caller.get()));
        if (!own) {
            baton.sessions().auditRefusal(body.sessionId() == null ? "(new session)" : body.sessionId(),
                    caller.orElse(null), "registration on process " + claimed.pid() + " it did not start");
            throw new BatonException(ErrorCode.FORBIDDEN, "process " + claimed.pid() + " is not the caller ("
                    + caller.map(p -> "pid " + p.pid()).orElse("a process the kernel does not name") + ") nor one it"
                    + " started; a session's agent process is the process that registers it or one of its own");
        }
        return claimed;
    }

    private static boolean isParentOf(ProcessIdentity parent, ProcessIdentity child) {
        return ProcessHandle.of(child.pid()).flatMap(ProcessHandle::parent)
                .map(handle -> handle.pid() == parent.pid()).orElse(false)
                && ProcessAncestry.descendsFrom(child, parent);
    }

    /** The running process {@code pid}; a start instant sent with it must be that process's. */
    static ProcessIdentity processOf(Long pid, Instant pidStart) {
        if (pid == null) {
            return null;
        }
        if (pid <= 0) {
            throw BatonException.invalid("pid must be positive, was " + pid);
        }
        ProcessIdentity running = ProcessIdentity.ofRunning(pid);
        if (running == null) {
            throw BatonException.invalid("process " + pid + " is not running; register with the pid of a live process");
        }
        if (pidStart != null && !ProcessIdentity.same(running, new ProcessIdentity(pid, pidStart))) {
            throw BatonException.invalid("process " + pid + " started at " + running.startedAt() + ", not at " + pidStart
                    + "; send the pid of a live process, and its start if you know it");
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
        List<Views.SessionView> sessions = baton.ledger().read(world -> world.rows(SessionRows.SESSIONS).stream()
                .sorted(java.util.Comparator.comparing(Session::startedAt).thenComparing(Session::id))
                .map(s -> Views.session(baton, world, s))
                .toList());
        Bodies.reply(ctx, Map.of("sessions", sessions));
    }

    private void get(Context ctx) {
        Session session = baton.sessions().get(ctx.pathParam("id"));
        Bodies.reply(ctx, view(session));
    }

    /** A heartbeat keeps a session's files from expiring: only the session itself may send one. */
    private void heartbeat(Context ctx) {
        String id = ctx.pathParam("id");
        Callers.verify(baton, ctx, id);
        Session session = baton.sessions().heartbeat(id);
        Bodies.reply(ctx, view(session));
    }

    /** Ending a session is its own call (its key, or its agent's process) or the supervisor's, who is audited as such. */
    private void end(Context ctx) {
        String id = ctx.pathParam("id");
        String actor = Supervisor.is(ctx) ? Supervisor.require(baton, ctx, "ending another session") : null;
        if (actor == null) {
            Callers.verify(baton, ctx, id);
        }
        List<String> released = baton.ledger().write(tx -> {
            Session session = tx.world().find(SessionRows.SESSIONS, id).orElseThrow(() -> BatonException.notFound(
                    "session " + id + " is not registered (it may have ended already)"));
            return baton.locks().endSession(tx, session, ReleaseReason.SESSION_ENDED, actor);
        });
        Bodies.reply(ctx, Map.of("session_id", id, "released", released));
    }

    private Views.SessionView view(Session session) {
        return baton.ledger().read(world -> Views.session(baton, world, session));
    }
}
