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
