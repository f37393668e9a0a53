package dev.baton.negotiation;

import dev.baton.lock.FileLock;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.Holder;
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
 * requester may then force-release. In a team, a request for a file another machine holds is relayed to it
 * ({@link NegotiationRelay}): each machine keeps its party's side of the request under one id.
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
    private volatile NegotiationRelay relay = NegotiationRelay.NONE;

    public Negotiations(Ledger ledger, LockTable locks) {
        this.ledger = ledger;
        this.locks = locks;
    }

    /** The other machines of a team ({@link NegotiationRelay}); none without a team. */
    public void relayThrough(NegotiationRelay relay) {
        this.relay = relay;
    }

    NegotiationRelay relay() {
        return relay;
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
        Optional<FileLock> local = world.find(LockRows.FILES, file);
        if (local.isEmpty()) {
            Holder elsewhere = locks.heldElsewhere(file).orElseThrow(() -> new BatonException(ErrorCode.CONFLICT, file
                    + " is not held by anyone, so there is nothing to negotiate; take it by editing it or with"
                    + " `baton acquire`"));
            return openAcrossMachines(tx, requester, file, reason, request.urgency(), elsewhere);
        }
        FileLock held = local.get();
        if (held.sessionId().equals(requester.id()) || held.sessionId().equals(requester.parentId())) {
            throw BatonException.invalid(file + " is held by " + (held.sessionId().equals(requester.id())
                    ? "this session" : "this session's parent") + " already; you may edit it");
        }
        Optional<Negotiation> existing = world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && n.requesterId().equals(requester.id()) && n.file().equals(file)
                        && !n.holderElsewhere() && n.holderId().equals(held.sessionId()))
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

    /**
     * A request for a file a session of another machine holds: opened here for the requester, and relayed to the
     * holder's machine, which opens its side under the same id. A request that cannot be relayed is not opened.
     */
    private Opened openAcrossMachines(Transaction tx, Session requester, String file, String reason, Urgency requested,
                                      Holder holder) {
        Optional<Negotiation> existing = tx.world().rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && n.requesterId().equals(requester.id()) && n.file().equals(file)
                        && holder.machine().equals(n.holderMachine()) && n.holderId().equals(holder.session()))
                .findFirst();
        if (existing.isPresent()) {
            return new Opened(existing.get().id(), false);
        }
        Urgency urgency = requested == null ? Urgency.NORMAL : requested;
        Negotiation negotiation = new Negotiation(NegotiationIds.next(tx.world()), file, requester.id(), holder.session(),
                reason, urgency, NegotiationStatus.PENDING, tx.now(), tx.now().plus(urgency.timeout()), null, null, null,
                null, null, false, null, null, holder.machine(), holder.agent());
        NegotiationRows.save(tx, negotiation);
        tx.audit("negotiate", requester.id(), file, negotiation.id() + " (" + urgency.wireName() + ", held on machine "
                + holder.machine() + "): " + reason, holder.session());
        SessionRows.save(tx, requester.withHeartbeat(tx.now()));
        relay.request(negotiation, requester);
        return new Opened(negotiation.id(), true);
    }

    /**
     * A request from a session of another machine for a file a session here holds (or a subagent of it): opened under
     * the requester's id for the holder, who hears it at its next hook call. False when that session no longer holds
     * the file, so the requester's machine is told it is released.
     */
    public boolean requestedFrom(RemoteRequest request) {
        return ledger.write(tx -> {
            World world = tx.world();
            if (world.find(NegotiationRows.NEGOTIATIONS, request.id()).isPresent()) {
                return true; // heard already
            }
            Optional<Session> holder = world.find(LockRows.FILES, request.file())
                    .flatMap(lock -> world.find(SessionRows.SESSIONS, lock.sessionId()))
                    .filter(s -> s.id().equals(request.holderId()) || request.holderId().equals(s.parentId()));
            if (holder.isEmpty()) {
                return false;
            }
            String reason = request.reason() == null || request.reason().isBlank() ? "(no reason given)" : request.reason();
            Negotiation negotiation = new Negotiation(request.id(), request.file(), request.requesterId(),
                    holder.get().id(), reason, request.urgency(), NegotiationStatus.PENDING, request.createdAt(),
                    request.timeoutAt(), null, null, null, null, null, false, null, request.requesterMachine(), null,
                    request.requesterAgent());
            NegotiationRows.save(tx, negotiation);
            tx.audit("negotiate", request.requesterId(), request.file(), negotiation.id() + " ("
                    + request.urgency().wireName() + ", from machine " + request.requesterMachine() + "): " + reason,
                    holder.get().id());
            // A dead holder will never answer: free its files now, which resolves this request as released.
            locks.freeIfStale(tx, holder.get());
            return true;
        });
    }

    /** The holder on another machine deferred its answer (as that machine recorded it). */
    public void deferredElsewhere(String id, String holderMachine, String holderAgent, Instant at, int etaMinutes,
                                  String why) {
        ledger.write(tx -> {
            openWithHolderOn(tx.world(), id, holderMachine).ifPresent(n -> {
                NegotiationRows.save(tx, n.deferred(at, etaMinutes, why).withRemoteAgent(holderAgent));
                tx.audit("negotiation-defer", n.holderId(), n.file(), id + ": " + etaMinutes + " min: " + why
                        + " (machine " + holderMachine + ")", n.requesterId());
            });
            return null;
        });
    }

    /** The file is free of the holder on another machine: its request is resolved as released. */
    public void releasedElsewhere(String id, String holderMachine) {
        ledger.write(tx -> {
            openWithHolderOn(tx.world(), id, holderMachine).ifPresent(n -> NegotiationRows.save(tx,
                    n.resolved(NegotiationStatus.RELEASED, tx.now(), ReleaseReason.RELEASED.wireName())));
            return null;
        });
    }

    /** The requester on another machine withdrew its request, or ended ({@code how}). */
    public void withdrawnElsewhere(String id, String requesterMachine, String how) {
        ledger.write(tx -> {
            tx.world().find(NegotiationRows.NEGOTIATIONS, id)
                    .filter(n -> n.isOpen() && requesterMachine.equals(n.requesterMachine()))
                    .ifPresent(n -> {
                        NegotiationRows.save(tx, n.resolved(NegotiationStatus.WITHDRAWN, tx.now(), how));
                        tx.audit("negotiation-withdraw", n.requesterId(), n.file(), id + " (machine " + requesterMachine
                                + ")", n.holderId());
                    });
            return null;
        });
    }

    /** Open requests of this machine's sessions for files that a session of {@code machine} holds. */
    public List<Negotiation> openWithHolderOn(String machine) {
        return ledger.read(world -> world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && machine.equals(n.holderMachine()))
                .toList());
    }

    private static Optional<Negotiation> openWithHolderOn(World world, String id, String machine) {
        return world.find(NegotiationRows.NEGOTIATIONS, id).filter(n -> n.isOpen() && machine.equals(n.holderMachine()));
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
                    .filter(found -> !found.holderElsewhere() && found.holderId().equals(holder.id()))
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
                    Negotiation released = n.resolved(NegotiationStatus.RELEASED, tx.now(), ReleaseReason.RELEASED.wireName());
                    NegotiationRows.save(tx, released);
                    if (released.requesterElsewhere()) {
                        relay.answer(released, holder);
                    }
                }
                // A release of a held file reaches a requester on another machine as the team's release of the file.
            } else if (answer instanceof Answer.Defer defer) {
                Negotiation deferred = n.deferred(tx.now(), defer.etaMinutes(), defer.reason());
                NegotiationRows.save(tx, deferred);
                if (deferred.requesterElsewhere()) {
                    relay.answer(deferred, holder);
                }
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
                    .filter(found -> !found.requesterElsewhere() && found.requesterId().equals(requester.id()))
                    .orElseThrow(() -> BatonException.notFound("session " + requester.shortId()
                            + " has no negotiation '" + id + "'"));
            requireOpen(n, tx.now(), "nothing to withdraw");
            Negotiation withdrawn = n.resolved(NegotiationStatus.WITHDRAWN, tx.now(), "withdrawn");
            NegotiationRows.save(tx, withdrawn);
            if (withdrawn.holderElsewhere()) {
                relay.withdraw(withdrawn);
            }
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
            if (world.find(LockRows.FILES, file).isEmpty()) {
                Optional<Holder> elsewhere = locks.heldElsewhere(file);
                if (elsewhere.isPresent()) {
                    throw heldOnAnotherMachine(file, elsewhere.get(), tx.now());
                }
            }
            List<Negotiation> mine = world.rows(NegotiationRows.NEGOTIATIONS).stream()
                    .filter(n -> n.isOpen() && n.requesterId().equals(requester.id()) && n.file().equals(file)
                            && !n.requesterElsewhere())
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

    /** A sidecar gives out and takes back its own machine's locks only: the holder's machine must free the file. */
    private static BatonException heldOnAnotherMachine(String file, Holder holder, Instant now) {
        return new BatonException(ErrorCode.CONFLICT, file + " is " + HeldMessage.heldBy(holder, now) + ", and a sidecar"
                + " cannot take another machine's lock, so it cannot be force-released from here. Wait for their answer"
                + " (`baton negotiations`), message them with `baton msg send " + holder.session() + " \"…\"`, or ask"
                + " whoever supervises machine " + holder.machine() + " to free it from that machine's dashboard");
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
                .filter(n -> isParty(n, sessionId))
                .map(n -> NegotiationView.of(world, n, ledger.clock().instant()))
                .orElseThrow(() -> unknown(id)));
    }

    /** Negotiations newest first: all of them ({@code sessionId} null, the supervisor's view) or one party's. */
    public List<NegotiationView> list(String sessionId, boolean openOnly) {
        return ledger.read(world -> {
            Instant now = ledger.clock().instant();
            return world.rows(NegotiationRows.NEGOTIATIONS).stream()
                    .filter(n -> sessionId == null || isParty(n, sessionId))
                    .filter(n -> !openOnly || n.isOpen())
                    .sorted(Comparator.comparing(Negotiation::createdAt).reversed())
                    .map(n -> NegotiationView.of(world, n, now))
                    .toList();
        });
    }

    /** Whether the session of this machine is the requester or the holder (a remote party's id is not this machine's). */
    private static boolean isParty(Negotiation n, String sessionId) {
        return !n.requesterElsewhere() && n.requesterId().equals(sessionId)
                || !n.holderElsewhere() && n.holderId().equals(sessionId);
    }

    /** The requester's open negotiation for the file, if it has one. */
    public Optional<Negotiation> openRequest(String requesterId, String file) {
        return ledger.read(world -> world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && !n.requesterElsewhere() && n.requesterId().equals(requesterId)
                        && n.file().equals(file))
                .findFirst());
    }

    /** Open negotiations as wait-for edges (requester → holder), for the deadlock detector. */
    public List<PendingRequest> pendingRequests() {
        return ledger.read(Negotiations::pendingIn);
    }

    /**
     * The same edges read inside a running transaction or read. The wait-for graph is this machine's: a request
     * whose other party runs on another machine is no edge of it.
     */
    public static List<PendingRequest> pendingIn(World world) {
        return world.rows(NegotiationRows.NEGOTIATIONS).stream()
                .filter(n -> n.isOpen() && !n.requesterElsewhere() && !n.holderElsewhere())
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
                // A party on another machine is not a session here, and its locks are not in this table.
                if (n.isOpen() && !n.requesterElsewhere() && world.find(SessionRows.SESSIONS, n.requesterId()).isEmpty()) {
                    Negotiation ended = n.resolved(NegotiationStatus.WITHDRAWN, tx.now(), "requester-ended");
                    NegotiationRows.save(tx, ended);
                    if (ended.holderElsewhere()) {
                        relay.withdraw(ended);
                    }
                } else if (n.isOpen() && !n.holderElsewhere() && world.find(LockRows.FILES, n.file())
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
