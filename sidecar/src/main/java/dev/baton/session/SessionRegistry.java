package dev.baton.session;

import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.LongStream;

/** Registers sessions, keeps their heartbeats and plans, and checks their keys. Ending one is {@code LockTable}'s job. */
public final class SessionRegistry {

    private final Ledger ledger;

    public SessionRegistry(Ledger ledger) {
        this.ledger = ledger;
    }

    /**
     * Registers a session, or refreshes it when the id is known (an agent resumed, or its first
     * hook event after a restart). The key is issued only when the session is created. The process in the registration
     * must be one the caller proved (the kernel's view of its connection); an id that is live with another process,
     * or that ended, is taken up only under {@link ResumeRule}, one stored without a process is tied to one only
     * under {@link TieRule}, and a refusal is audited.
     */
    public Registered register(Registration registration) {
        String id = registration.id() == null ? UUID.randomUUID().toString() : SessionIds.requireValid(registration.id());
        Optional<String> refusal = ledger.read(world -> takeOverRefusal(world, id, registration));
        if (refusal.isPresent()) {
            auditRefusal(id, registration.process(), "registration of an id it does not own: " + refusal.get());
            throw new BatonException(ErrorCode.CONFLICT, refusal.get());
        }
        return ledger.write(tx -> {
            takeOverRefusal(tx.world(), id, registration).ifPresent(reason -> {
                throw new BatonException(ErrorCode.CONFLICT, reason);
            });
            return registerNow(tx, id, registration);
        });
    }

    /**
     * The live main session of this kind that {@code process} runs under an id starting with {@code prefix}, or a new
     * one under that prefix and an id no one can guess: for an agent that names no session of its own (Copilot CLI
     * may send none), whose process is then its conversation. Found and created in one transaction, so two calls of
     * one agent at once get one session.
     */
    public Registered registerForProcess(String prefix, Registration registration) {
        ProcessIdentity process = registration.process();
        if (process == null) {
            throw BatonException.invalid("a session found by its agent process needs that process");
        }
        return ledger.write(tx -> {
            Optional<Session> running = ofProcess(tx.world(), prefix, registration.agent(), process);
            return registerNow(tx, running.map(Session::id).orElseGet(() -> prefix + SessionKeys.newKey()), registration);
        });
    }

    /** The id of the live main session of this kind that {@code process} runs under {@code prefix}, if any. */
    public Optional<String> idOfProcess(String prefix, AgentKind agent, ProcessIdentity process) {
        return ledger.read(world -> ofProcess(world, prefix, agent, process).map(Session::id));
    }

    private static Optional<Session> ofProcess(World world, String prefix, AgentKind agent, ProcessIdentity process) {
        return world.rows(SessionRows.SESSIONS).stream()
                .filter(session -> session.parentId() == null && session.agent().equals(agent) && session.id().startsWith(prefix)
                        && ResumeRule.sameProcess(session.process(), process))
                .min(Comparator.comparing(Session::startedAt).thenComparing(Session::id));
    }

    private Registered registerNow(Transaction tx, String id, Registration registration) {
        if (registration.parentId() != null && tx.world().find(SessionRows.SESSIONS, registration.parentId()).isEmpty()) {
            throw BatonException.notFound("parent session " + registration.parentId() + " is not registered");
        }
        Optional<Session> existing = tx.world().find(SessionRows.SESSIONS, id);
        if (existing.isPresent()) {
            Session old = existing.get();
            Session refreshed = new Session(id, old.agent(),
                    registration.process() != null ? registration.process() : old.process(),
                    registration.host() != null ? registration.host() : old.host(),
                    registration.cwd() != null ? registration.cwd() : old.cwd(),
                    registration.repoRoot() != null ? registration.repoRoot() : old.repoRoot(),
                    old.startedAt(), tx.now(),
                    registration.name() != null ? registration.name() : old.name(),
                    old.parentId(), old.keyHash(), old.plan());
            SessionRows.save(tx, refreshed);
            return new Registered(refreshed, null, false);
        }
        String key = SessionKeys.newKey();
        Session created = new Session(id, registration.agent(), registration.process(), registration.host(),
                registration.cwd(), registration.repoRoot(), tx.now(), tx.now(), registration.name(),
                registration.parentId(), SessionKeys.hash(key), null);
        SessionRows.save(tx, created);
        tx.audit("session-start", id, null, registration.agent().wireName(), null);
        return new Registered(created, key, true);
    }

    /**
     * Why this registration may not take {@code id}: a live session's id stays with its agent process, an agent's
     * session stored without one is tied only under {@link TieRule}, and the id of an ended session, or of one whose
     * agent exited, goes only to that agent or a resume of it ({@link ResumeRule}).
     */
    private static Optional<String> takeOverRefusal(World world, String id, Registration registration) {
        ProcessIdentity process = registration.process();
        Optional<Session> existing = world.find(SessionRows.SESSIONS, id);
        if (existing.isPresent()) {
            Session old = existing.get();
            if (process == null || ResumeRule.sameProcess(old.process(), process)) {
                return Optional.empty();
            }
            if (old.process() == null) {
                return TieRule.refusal(old, registration.agent(), process, world);
            }
            if (running(old.process())) {
                return Optional.of("session " + old.shortId() + " belongs to the running process " + old.process().pid()
                        + "; another process (" + process.pid() + ") cannot take its id over");
            }
            return ResumeRule.refusal(EndedSession.of(old, old.lastHeartbeat(), true), registration.agent(), process, world);
        }
        return world.find(SessionRows.ENDED, id)
                .flatMap(ended -> ResumeRule.refusal(ended, registration.agent(), process, world));
    }

    private static boolean running(ProcessIdentity process) {
        ProcessIdentity now = ProcessIdentity.ofRunning(process.pid());
        return now != null && ResumeRule.sameProcess(process, now);
    }

    /**
     * A hook call acts for an existing session only when the kernel shows it comes from below the session's agent
     * process, or when that agent exited and the call's agent ({@code claimant}, found from the kernel's view of the
     * connection) may resume it ({@link ResumeRule}). A session stored without an agent process is tied to the first
     * caller whose agent {@link TieRule} accepts; a call that names no agent process either may act for it. Refusals
     * are audited, naming the calling process, except for a call whose hook gave up before it was looked at (no
     * process holds its connection any more): no one is there to be refused, and its agent is not an impostor.
     *
     * @param agent the kind the hook calls as (the one it was installed for)
     * @return true when the call is a resume or a tie: the session is to be registered again for its agent process
     */
    public boolean requireHookCaller(String id, AgentKind agent, ConnectionPeer caller,
                                     Supplier<Optional<ProcessIdentity>> claimant) {
        Optional<Session> existing = find(id);
        if (existing.isEmpty()) {
            return false;
        }
        Session session = existing.get();
        if (session.process() != null && AgentIdentity.startedBy(session, caller)) {
            return false;
        }
        Optional<ProcessIdentity> agentProcess = claimant.get();
        Optional<String> tieRefusal = Optional.empty();
        if (session.process() == null) {
            if (agentProcess.isEmpty()) {
                return false; // untied, and nothing to tie it to
            }
            tieRefusal = ledger.read(world -> TieRule.refusal(session, agent, agentProcess.get(), world));
            if (tieRefusal.isEmpty()) {
                return true;
            }
        } else if (agentProcess.isPresent() && !running(session.process())
                && ledger.read(world -> ResumeRule.refusal(EndedSession.of(session, session.lastHeartbeat(), true),
                        session.agent(), agentProcess.get(), world)).isEmpty()) {
            return true;
        }
        if (caller.closed()) {
            throw new BatonException(ErrorCode.FORBIDDEN, "the hook that made this call for session " + session.shortId()
                    + " closed its connection before Baton could check where it came from; nothing was done");
        }
        String who = caller.find(LongStream.empty()).map(p -> "pid " + p.pid()).orElse("an unknown process");
        String why = tieRefusal.map(reason -> "hook call for a session stored without an agent process: " + reason)
                .orElse("hook call not from below the session's agent");
        ledger.write(tx -> {
            tx.audit("impersonation-refused", id, null, why, who);
            return null;
        });
        throw new BatonException(ErrorCode.FORBIDDEN, "this hook call names session " + session.shortId() + ", but it does"
                + " not come from that session's agent process" + tieRefusal.map(reason -> " (it was stored without one,"
                + " and " + reason + ")").orElseGet(() -> " (pid " + session.process().pid() + ")")
                + "; a hook acts only for the agent that runs it");
    }

    /** Records a refused attempt to act as a session, naming the process that tried. */
    public void auditRefusal(String id, ProcessIdentity process, String what) {
        ledger.write(tx -> {
            tx.audit("impersonation-refused", id, null, what, process == null ? "an unknown process" : "pid " + process.pid());
            return null;
        });
    }

    public Session heartbeat(String id) {
        return ledger.write(tx -> {
            Session session = tx.world().find(SessionRows.SESSIONS, id).orElseThrow(() -> unknown(id));
            Session beat = session.withHeartbeat(tx.now());
            SessionRows.save(tx, beat);
            return beat;
        });
    }

    public Session setPlan(String id, String goal, String currentTask) {
        return ledger.write(tx -> {
            Session session = tx.world().find(SessionRows.SESSIONS, id).orElseThrow(() -> unknown(id));
            Session planned = session.withPlan(new Plan(goal, currentTask, tx.now())).withHeartbeat(tx.now());
            SessionRows.save(tx, planned);
            return planned;
        });
    }

    public Optional<Session> find(String id) {
        return ledger.read(world -> world.find(SessionRows.SESSIONS, id));
    }

    public Session get(String id) {
        return find(id).orElseThrow(() -> unknown(id));
    }

    public List<Session> list() {
        return ledger.read(world -> world.rows(SessionRows.SESSIONS).stream()
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

    /**
     * The main session run by {@code caller} or the nearest process above it that runs one (pid and start instant),
     * as the CLI in an agent's shell finds its agent; when that process runs several, the one heard from last. The
     * ancestry is read before the ledger is, so no process table is walked while it is held.
     */
    public Optional<Session> runningAbove(ProcessIdentity caller) {
        List<ProcessIdentity> line = ProcessAncestry.lineage(caller); // empty: it exited, or its pid names another
        if (line.isEmpty()) {
            return Optional.empty();
        }
        return ledger.read(world -> {
            for (ProcessIdentity process : line) {
                Optional<Session> hosted = world.rows(SessionRows.SESSIONS).stream()
                        .filter(session -> session.parentId() == null && ProcessIdentity.same(session.process(), process))
                        .max(Comparator.comparing(Session::lastHeartbeat).thenComparing(Session::id));
                if (hosted.isPresent()) {
                    return hosted;
                }
            }
            return Optional.empty();
        });
    }

    /** The ended session whose id this was, while it is kept. */
    public Optional<EndedSession> ended(String id) {
        return ledger.read(world -> world.find(SessionRows.ENDED, id));
    }

    private static BatonException unknown(String id) {
        return BatonException.notFound("session " + id + " is not registered (it may have ended or been cleaned up as stale)");
    }
}
