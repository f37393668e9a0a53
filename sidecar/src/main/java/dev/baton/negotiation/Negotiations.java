package dev.baton.negotiation;

import dev.baton.lock.FileLock;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.LockRows;
import dev.baton.lock.LockTable;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Negotiated hand-offs: a session asks for a file another holds, the holder answers release or
 * defer, and the request resolves by itself when the file is released by any path
 * ({@link NegotiationResolver}). Nothing is freed automatically when a request times out; the
 * requester may then force-release.
 */
public final class Negotiations {

    public static final int MAX_REASON_LENGTH = Reasons.MAX_LENGTH;
    public static final Duration MAX_WAIT = Duration.ofMinutes(10);
    /** Resolved negotiations stay readable this long (a late `baton respond` gets a clear answer), then are pruned. */
    static final Duration KEEP_RESOLVED = Duration.ofDays(1);
    /** A waiting negotiate looks again at least this often: a timeout comes from the clock, not from a commit. */
    private static final Duration RECHECK = Duration.ofSeconds(1);
    private static final Set<NegotiationStatus> TOLD_TO_REQUESTER =
            EnumSet.of(NegotiationStatus.DEFERRED, NegotiationStatus.TIMEOUT_ELIGIBLE, NegotiationStatus.RELEASED);

    private final Ledger ledger;
    private final LockTable locks;

    public Negotiations(Ledger ledger, LockTable locks) {
        this.ledger = ledger;
        this.locks = locks;
    }

    /**
     * Opens a negotiation for a held file (or finds the caller's open one for it) and, with a wait,
     * blocks until the file is released, the request times out, the holder defers past the end of
     * the wait, or the wait ends. The ledger version is taken before each look, so an answer that
     * lands at the last moment wakes the wait instead of being missed.
     */
    public NegotiationOutcome negotiate(NegotiationRequest request) {
        if (request.waitFor().isNegative() || request.waitFor().compareTo(MAX_WAIT) > 0) {
            throw BatonException.invalid("wait_seconds must be between 0 and " + MAX_WAIT.toSeconds());
        }
        Ledger.Tracked<Opened> opened = ledger.writeTracked(tx -> open(tx, request));
        String id = opened.value().id();
        long seen = opened.version();
        Negotiation current = find(id);
        if (!request.waitFor().isZero()) {
            long deadline = System.nanoTime() + request.waitFor().toNanos();
            Instant waitEnds = ledger.clock().instant().plus(request.waitFor());
            try {
                while (!settled(current, waitEnds) && System.nanoTime() < deadline) {
                    ledger.awaitChange(seen, Math.min(deadline, System.nanoTime() + RECHECK.toNanos()));
                    seen = ledger.version();
                    current = find(id);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        acknowledgeToRequester(current);
        return new NegotiationOutcome(view(id), opened.value().created());
    }

    private record Opened(String id, boolean created) {
    }

    private Opened open(Transaction tx, NegotiationRequest request) {
        World world = tx.world();
        Session requester = requireSession(world, request.requesterId());
        String reason = Reasons.require(request.reason(), "say why you need the file, so the holder can decide");
        String file = request.file();
        FileLock held = world.find(LockRows.FILES, file).orElseThrow(() -> locks.heldElsewhere(file)
                .map(holder -> new BatonException(ErrorCode.CONFLICT, file + " is " + HeldMessage.heldBy(holder, tx.now())
                        + ", another machine of the team; a request cannot reach it from here yet: send them a message"
                        + " with `baton msg send " + holder.session() + " \"…\"` (it reaches them at their next tool call),"
                        + " and edit the file once they let it go"))
                .orElseGet(() -> new BatonException(ErrorCode.CONFLICT, file + " is not held by anyone, so there is"
                        + " nothing to negotiate; take it by editing it or with `baton acquire`")));
        if (held.sessionId().equals(requester.id()) || held.sessionId().equals(requester.parentId())) {
            throw BatonException.invalid(file + " is held by " + (held.sessionId().equals(requester.id())
                    ? "this session" : "this session's parent") + " already; you may edit it");
        }
        Optional<Negotiation> existing = world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && n.requesterId().equals(requester.id()) && n.file().equals(file)
                        && n.holderId().equals(held.sessionId()))
                .findFirst();
        if (existing.isPresent()) {
            return new Opened(existing.get().id(), false);
        }
        Urgency urgency = request.urgency() == null ? Urgency.NORMAL : request.urgency();
        Negotiation negotiation = new Negotiation(NegotiationIds.next(world), file, requester.id(), held.sessionId(), reason, urgency,
                NegotiationStatus.PENDING, tx.now(), tx.now().plus(urgency.timeout()), null, null, null, null, null,
                false, null);
        NegotiationRows.save(tx, negotiation);
        tx.audit("negotiate", requester.id(), file, negotiation.id() + " (" + urgency.wireName() + "): " + reason,
                null);
        SessionRows.save(tx, requester.withHeartbeat(tx.now()));
        Optional<Session> holder = world.find(SessionRows.SESSIONS, held.sessionId());
        if (holder.isEmpty()) {
            LockRows.remove(tx, held, ReleaseReason.HOLDER_EXITED, null);
            tx.audit("release", held.sessionId(), file, ReleaseReason.HOLDER_EXITED.wireName(), null);
        } else {
            // A dead holder will never answer: free its files now, which resolves this request as released.
            locks.freeIfStale(tx, holder.get());
        }
        return new Opened(negotiation.id(), true);
    }

    private boolean settled(Negotiation n, Instant waitEnds) {
        NegotiationStatus status = n.status(ledger.clock().instant());
        if (status == NegotiationStatus.DEFERRED) {
            // The holder's own estimate says whether waiting on can end in a release.
            return n.answeredAt().plusSeconds(60L * n.etaMinutes()).isAfter(waitEnds);
        }
        return status != NegotiationStatus.PENDING;
    }

    /** The requester saw this status in its reply, so its next hook call need not repeat it. */
    private void acknowledgeToRequester(Negotiation n) {
        ledger.write(tx -> {
            tx.world().find(NegotiationRows.NEGOTIATIONS, n.id()).ifPresent(now -> {
                NegotiationStatus status = now.status(tx.now());
                if (TOLD_TO_REQUESTER.contains(status) && now.requesterNotified() != status) {
                    NegotiationRows.save(tx, now.requesterTold(status));
                }
            });
            return null;
        });
    }

    /** The holder's answer: release frees the file now (which resolves every request for it); defer promises it later. */
    public NegotiationView respond(String holderId, String id, Answer answer) {
        ledger.write(tx -> {
            World world = tx.world();
            Session holder = requireSession(world, holderId);
            Negotiation n = world.find(NegotiationRows.NEGOTIATIONS, id)
                    .filter(found -> found.holderId().equals(holder.id()))
                    .orElseThrow(() -> BatonException.notFound("no negotiation '" + id + "' is addressed to session "
                            + holder.shortId() + "; requests for your files reach you with their ids on your next tool call"));
            requireOpen(n, tx.now(), "nothing to answer");
            if (answer instanceof Answer.Release release) {
                tx.audit("negotiation-release", holder.id(), n.file(),
                        id + (release.reason() == null ? "" : ": " + release.reason()), n.requesterId());
                Optional<FileLock> lock = world.find(LockRows.FILES, n.file())
                        .filter(held -> held.sessionId().equals(holder.id()));
                if (lock.isPresent()) {
                    LockRows.remove(tx, lock.get(), ReleaseReason.RELEASED, null);
                    tx.audit("release", holder.id(), n.file(), ReleaseReason.RELEASED.wireName(), null);
                } else {
                    NegotiationRows.save(tx,
                            n.resolved(NegotiationStatus.RELEASED, tx.now(), ReleaseReason.RELEASED.wireName()));
                }
            } else if (answer instanceof Answer.Defer defer) {
                NegotiationRows.save(tx, n.deferred(tx.now(), defer.etaMinutes(), defer.reason()));
                tx.audit("negotiation-defer", holder.id(), n.file(),
                        id + ": " + defer.etaMinutes() + " min: " + defer.reason(), n.requesterId());
            }
            SessionRows.save(tx, holder.withHeartbeat(tx.now()));
            return null;
        });
        return view(id);
    }

    /** The requester no longer needs the file. */
    public NegotiationView withdraw(String requesterId, String id) {
        ledger.write(tx -> {
            Session requester = requireSession(tx.world(), requesterId);
            Negotiation n = tx.world().find(NegotiationRows.NEGOTIATIONS, id)
                    .filter(found -> found.requesterId().equals(requester.id()))
                    .orElseThrow(() -> BatonException.notFound("session " + requester.shortId()
                            + " has no negotiation '" + id + "'"));
            requireOpen(n, tx.now(), "nothing to withdraw");
            NegotiationRows.save(tx, n.resolved(NegotiationStatus.WITHDRAWN, tx.now(), "withdrawn"));
            tx.audit("negotiation-withdraw", requester.id(), n.file(), id, n.holderId());
            return null;
        });
        return view(id);
    }

    /**
     * The requester of a timed-out negotiation takes the file from its holder. Advisory locking
     * means this is the requester's call to make; the audit log records both parties.
     */
    public NegotiationView forceRelease(String requesterId, String file) {
        String id = ledger.write(tx -> {
            World world = tx.world();
            Session requester = requireSession(world, requesterId);
            List<Negotiation> mine = world.rows(NegotiationRows.NEGOTIATIONS).stream()
                    .filter(n -> n.isOpen() && n.requesterId().equals(requester.id()) && n.file().equals(file))
                    .toList();
            if (mine.isEmpty()) {
                throw new BatonException(ErrorCode.FORBIDDEN, "session " + requester.shortId()
                        + " has no open negotiation for " + file + "; only the requester of a negotiation that timed out may"
                        + " force-release (ask first with `baton negotiate`; the person supervising the agents can free it from the dashboard)");
            }
            Negotiation eligible = mine.stream()
                    .filter(n -> n.status(tx.now()) == NegotiationStatus.TIMEOUT_ELIGIBLE)
                    .findFirst()
                    .orElseThrow(() -> {
                        Negotiation n = mine.get(0);
                        return new BatonException(ErrorCode.CONFLICT, n.id() + " is " + n.status(tx.now()).wireName()
                                + "; you may force-release " + file + " once it times out at " + n.timeoutAt() + " ("
                                + Parties.in(tx.now(), n.timeoutAt()) + ")");
                    });
            FileLock lock = world.find(LockRows.FILES, file).filter(held -> held.sessionId().equals(eligible.holderId()))
                    .orElseThrow(() -> new BatonException(ErrorCode.CONFLICT, file + " is no longer held by "
                            + eligible.holderId() + "; take it by editing it or with `baton acquire`"));
            LockRows.remove(tx, lock, ReleaseReason.FORCED, requester.id());
            tx.audit("release", lock.sessionId(), file, ReleaseReason.FORCED.wireName(), requester.id());
            tx.audit("force-release", requester.id(), file, eligible.id() + " timed out at " + eligible.timeoutAt(),
                    lock.sessionId());
            return eligible.id();
        });
        return view(id);
    }

    private static void requireOpen(Negotiation n, Instant now, String consequence) {
        if (!n.isOpen()) {
            throw new BatonException(ErrorCode.CONFLICT, n.id() + " is already " + n.status(now).wireName() + " ("
                    + n.resolution() + " at " + n.resolvedAt() + "); " + consequence);
        }
    }

    public NegotiationView view(String id) {
        return ledger.read(world -> world.find(NegotiationRows.NEGOTIATIONS, id)
                .map(n -> NegotiationView.of(world, n, ledger.clock().instant()))
                .orElseThrow(() -> unknown(id)));
    }

    /** The negotiation if {@code sessionId} is one of its parties; others do not learn it exists. */
    public NegotiationView viewFor(String sessionId, String id) {
        return ledger.read(world -> world.find(NegotiationRows.NEGOTIATIONS, id)
                .filter(n -> n.requesterId().equals(sessionId) || n.holderId().equals(sessionId))
                .map(n -> NegotiationView.of(world, n, ledger.clock().instant()))
                .orElseThrow(() -> unknown(id)));
    }

    /** Negotiations newest first: all of them ({@code sessionId} null, the supervisor's view) or one party's. */
    public List<NegotiationView> list(String sessionId, boolean openOnly) {
        return ledger.read(world -> {
            Instant now = ledger.clock().instant();
            return world.rows(NegotiationRows.NEGOTIATIONS).stream()
                    .filter(n -> sessionId == null || n.requesterId().equals(sessionId) || n.holderId().equals(sessionId))
                    .filter(n -> !openOnly || n.isOpen())
                    .sorted(Comparator.comparing(Negotiation::createdAt).reversed())
                    .map(n -> NegotiationView.of(world, n, now))
                    .toList();
        });
    }

    /** Open negotiations as wait-for edges (requester → holder), for the deadlock detector. */
    /** The requester's open negotiation for the file, if it has one. */
    public Optional<Negotiation> openRequest(String requesterId, String file) {
        return ledger.read(world -> world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && n.requesterId().equals(requesterId) && n.file().equals(file))
                .findFirst());
    }

    public List<PendingRequest> pendingRequests() {
        return ledger.read(Negotiations::pendingIn);
    }

    /** The same edges read inside a running transaction or read. */
    public static List<PendingRequest> pendingIn(World world) {
        return world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(Negotiation::isOpen)
                .map(n -> new PendingRequest(n.id(), n.requesterId(), n.holderId(), n.file(), n.createdAt()))
                .toList();
    }

    /**
     * What the sweeper runs: records timeouts (so a listener sees them when they happen), closes
     * requests whose parties are gone, and prunes resolved ones after a day.
     */
    public int sweep() {
        return ledger.write(tx -> {
            World world = tx.world();
            int changed = 0;
            for (Negotiation n : List.copyOf(world.rows(NegotiationRows.NEGOTIATIONS))) {
                if (n.isOpen() && world.find(SessionRows.SESSIONS, n.requesterId()).isEmpty()) {
                    NegotiationRows.save(tx, n.resolved(NegotiationStatus.WITHDRAWN, tx.now(), "requester-ended"));
                } else if (n.isOpen() && world.find(LockRows.FILES, n.file())
                        .filter(l -> l.sessionId().equals(n.holderId())).isEmpty()) {
                    NegotiationRows.save(tx,
                            n.resolved(NegotiationStatus.RELEASED, tx.now(), ReleaseReason.RELEASED.wireName()));
                } else if (n.state() != NegotiationStatus.TIMEOUT_ELIGIBLE
                        && n.status(tx.now()) == NegotiationStatus.TIMEOUT_ELIGIBLE) {
                    NegotiationRows.save(tx, n.timedOut());
                    tx.audit("negotiation-timeout", n.requesterId(), n.file(), n.id(), n.holderId());
                } else if (!n.isOpen() && n.resolvedAt().isBefore(tx.now().minus(KEEP_RESOLVED))) {
                    NegotiationRows.remove(tx, n);
                } else {
                    continue;
                }
                changed++;
            }
            return changed;
        });
    }

    Negotiation find(String id) {
        return ledger.read(world -> world.find(NegotiationRows.NEGOTIATIONS, id).orElseThrow(() -> unknown(id)));
    }

    private static Session requireSession(World world, String sessionId) {
        return world.find(SessionRows.SESSIONS, sessionId).orElseThrow(() -> BatonException.notFound("session " + sessionId
                + " is not registered (it may have ended or been cleaned up as stale)"));
    }

    private static BatonException unknown(String id) {
        return BatonException.notFound("no negotiation '" + id + "'; list yours with `baton negotiations`");
    }
}
