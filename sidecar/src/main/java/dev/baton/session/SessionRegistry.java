package dev.baton.session;

import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.state.Ledger;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Registers sessions, keeps their heartbeats and plans, and checks their keys. Ending one is {@code LockTable}'s job. */
public final class SessionRegistry {

    private final Ledger ledger;

    public SessionRegistry(Ledger ledger) {
        this.ledger = ledger;
    }

    /**
     * Registers a session, or refreshes it when the id is known (an agent resumed, or its first
     * hook event after a restart). The key is issued only when the session is created.
     */
    public Registered register(Registration registration) {
        String id = registration.id() == null ? UUID.randomUUID().toString() : SessionIds.requireValid(registration.id());
        return ledger.write(tx -> {
            if (registration.parentId() != null && tx.world().session(registration.parentId()).isEmpty()) {
                throw BatonException.notFound("parent session " + registration.parentId() + " is not registered");
            }
            Optional<Session> existing = tx.world().session(id);
            if (existing.isPresent()) {
                Session old = existing.get();
                refuseTakeover(old, registration.process());
                Session refreshed = new Session(id, old.agent(),
                        registration.process() != null ? registration.process() : old.process(),
                        registration.host() != null ? registration.host() : old.host(),
                        registration.cwd() != null ? registration.cwd() : old.cwd(),
                        registration.repoRoot() != null ? registration.repoRoot() : old.repoRoot(),
                        old.startedAt(), tx.now(),
                        registration.name() != null ? registration.name() : old.name(),
                        old.parentId(), old.keyHash(), old.plan());
                tx.saveSession(refreshed);
                return new Registered(refreshed, null, false);
            }
            String key = SessionKeys.newKey();
            Session created = new Session(id, registration.agent(), registration.process(), registration.host(),
                    registration.cwd(), registration.repoRoot(), tx.now(), tx.now(), registration.name(),
                    registration.parentId(), SessionKeys.hash(key), null);
            tx.saveSession(created);
            tx.audit("session-start", id, null, registration.agent().wireName(), null);
            return new Registered(created, key, true);
        });
    }

    /**
     * A live session's id stays with its agent process: registering it again for another process (or giving a
     * process to a session registered without one) is refused. An agent that exited may be resumed by a new one.
     */
    private static void refuseTakeover(Session old, ProcessIdentity process) {
        if (process == null || sameProcess(old.process(), process)) {
            return;
        }
        if (old.process() == null) {
            throw new BatonException(ErrorCode.CONFLICT, "session " + old.shortId() + " was registered without an agent"
                    + " process; it cannot be given one now (register a new session instead)");
        }
        ProcessIdentity running = ProcessIdentity.ofRunning(old.process().pid());
        if (running != null && sameProcess(old.process(), running)) {
            throw new BatonException(ErrorCode.CONFLICT, "session " + old.shortId() + " belongs to the running process "
                    + old.process().pid() + "; another process (" + process.pid() + ") cannot take its id over");
        }
    }

    private static boolean sameProcess(ProcessIdentity a, ProcessIdentity b) {
        return a != null && b != null && a.pid() == b.pid()
                && (a.startedAt() == null || b.startedAt() == null ? a.startedAt() == b.startedAt()
                        : ProcessAncestry.sameStart(a.startedAt(), b.startedAt()));
    }

    /**
     * A hook call acts for an existing session only when the kernel shows it comes from below the session's agent
     * process. A session registered without an agent process (a hook call that named none) is not tied to one, so
     * a call that names none either may act for it. Refusals are audited, naming the calling process.
     */
    public void requireHookCaller(String id, ConnectionPeer caller, boolean callNamesAgent) {
        Optional<Session> existing = find(id);
        if (existing.isEmpty()) {
            return;
        }
        Session session = existing.get();
        if (session.process() == null ? !callNamesAgent : AgentIdentity.startedBy(session, caller)) {
            return;
        }
        String who = caller.find(java.util.stream.LongStream.empty()).map(p -> "pid " + p.pid()).orElse("an unknown process");
        ledger.write(tx -> {
            tx.audit("impersonation-refused", id, null, "hook call not from below the session's agent", who);
            return null;
        });
        throw new BatonException(ErrorCode.FORBIDDEN, "this hook call names session " + session.shortId() + ", but it does"
                + " not come from that session's agent process" + (session.process() == null ? "" : " (pid "
                + session.process().pid() + ")") + "; a hook acts only for the agent that runs it");
    }

    public Session heartbeat(String id) {
        return ledger.write(tx -> {
            Session session = tx.world().session(id).orElseThrow(() -> unknown(id));
            Session beat = session.withHeartbeat(tx.now());
            tx.saveSession(beat);
            return beat;
        });
    }

    public Session setPlan(String id, String goal, String currentTask) {
        return ledger.write(tx -> {
            Session session = tx.world().session(id).orElseThrow(() -> unknown(id));
            Session planned = session.withPlan(new Plan(goal, currentTask, tx.now())).withHeartbeat(tx.now());
            tx.saveSession(planned);
            return planned;
        });
    }

    public Optional<Session> find(String id) {
        return ledger.read(world -> world.session(id));
    }

    public Session get(String id) {
        return find(id).orElseThrow(() -> unknown(id));
    }

    public List<Session> list() {
        return ledger.read(world -> world.sessions().stream()
                .sorted(Comparator.comparing(Session::startedAt).thenComparing(Session::id))
                .toList());
    }

    /** Throws UNAUTHORIZED unless {@code key} is the session's key. */
    public Session authenticate(String id, String key) {
        Session session = get(id);
        if (!SessionKeys.matches(key, session.keyHash())) {
            throw new BatonException(ErrorCode.UNAUTHORIZED,
                    "the key does not match session " + session.shortId() + "; use the key issued when it registered");
        }
        return session;
    }

    private static BatonException unknown(String id) {
        return BatonException.notFound("session " + id + " is not registered (it may have ended or been cleaned up as stale)");
    }
}
