package dev.baton.deadlock;

import dev.baton.Baton;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockTable;
import dev.baton.lock.ReleaseReason;
import dev.baton.lock.WaitObserver;
import dev.baton.session.Session;
import dev.baton.state.Change;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Deadlock detection: keeps the wait-for graph (waiting acquires, negotiations, denied edits), looks
 * for cycles whenever an edge or a holder changes, and reports each cycle once with its victim, the
 * youngest session in it. Under {@code auto-release} it frees the victim's files at once.
 * Everything runs inside ledger transactions, so waits and deadlocks commit with what caused them.
 */
public final class Deadlocks {

    /** A pathological graph stops the cycle search here; open deadlocks are then checked edge by edge. */
    static final int CYCLE_LIMIT = 64;
    private static final long EXPIRY_CHECK_MILLIS = 500;

    private final Ledger ledger;
    private final LockTable locks;
    private final DeadlockSettings settings;
    private final WaitForGraph graph = new WaitForGraph();
    private final Map<String, OpenDeadlock> open = new LinkedHashMap<>();
    private final ScheduledExecutorService expiry;

    private Deadlocks(Baton baton, DeadlockSettings settings) {
        this.ledger = baton.ledger();
        this.locks = baton.locks();
        this.settings = settings;
        this.expiry = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-deadlock-expiry");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Creates the detector and hooks it into the ledger and the lock table. */
    public static Deadlocks install(Baton baton, DeadlockSettings settings) {
        Deadlocks deadlocks = new Deadlocks(baton, settings);
        baton.ledger().addInterceptor(deadlocks::beforeCommit);
        baton.locks().observeWaits(deadlocks.new AcquireWaits());
        deadlocks.expiry.scheduleWithFixedDelay(deadlocks::expireDeniedWaits, EXPIRY_CHECK_MILLIS, EXPIRY_CHECK_MILLIS,
                TimeUnit.MILLISECONDS);
        baton.ledger().addCloseHook(deadlocks.expiry::shutdownNow);
        return deadlocks;
    }

    public DeadlockSettings settings() {
        return settings;
    }

    // ---- seams for the hook endpoint and coordination

    /**
     * A hook edit of {@code file} was denied: the session counts as waiting for it for the denied-edit
     * window, or until it gets the file or ends. A second denial moves the window on.
     */
    public void editDenied(String sessionId, String file) {
        ledger.write(tx -> {
            editDenied(tx, sessionId, file);
            return null;
        });
    }

    /** The same inside a running transaction. */
    public void editDenied(Transaction tx, String sessionId, String file) {
        World world = tx.world();
        boolean holdsIt = world.lock(file).map(lock -> lock.sessionId().equals(sessionId)).orElse(false);
        if (world.session(sessionId).isEmpty() || holdsIt) {
            return;
        }
        startWait(tx, sessionId, file, WaitKind.DENIED, tx.now().plus(settings.deniedWindow()));
        detect(tx, Cause.of(null));
    }

    /** A negotiation for {@code file} by {@code requester} is pending: an edge to whoever holds the file. */
    public void negotiationOpened(Transaction tx, String requester, String file) {
        if (tx.world().session(requester).isEmpty()) {
            return;
        }
        startWait(tx, requester, file, WaitKind.NEGOTIATION, null);
        detect(tx, Cause.of(null));
    }

    /** The negotiation is over (answered, resolved, timed out, withdrawn); {@code how} says which. */
    public void negotiationClosed(Transaction tx, String requester, String file, String how) {
        graph.get(requester, file, WaitKind.NEGOTIATION).ifPresent(wait -> {
            endWait(tx, wait, how);
            detect(tx, Cause.of(how));
        });
    }

    /** For the victim's next hook call: the instruction to release, once per deadlock; empty otherwise. */
    public Optional<DeadlockAdvice> takeAdvice(String sessionId) {
        return ledger.read(world -> open.values().stream()
                .filter(d -> d.deadlock.victim().equals(sessionId) && !d.adviceTaken)
                .findFirst()
                .map(d -> {
                    d.adviceTaken = true;
                    return d.advice;
                }));
    }

    /** For any member's deny message while its deadlock is open: a sentence naming the cycle. */
    public Optional<String> denyNote(String sessionId) {
        return ledger.read(world -> open.values().stream().filter(d -> d.involves(sessionId)).findFirst().map(d -> d.note));
    }

    public List<Deadlock> deadlocks() {
        return ledger.read(this::deadlocks);
    }

    /** Open deadlocks; call under the ledger (inside {@code read} or a transaction). */
    public List<Deadlock> deadlocks(World world) {
        return open.values().stream().map(d -> d.deadlock).toList();
    }

    public List<WaitView> waits() {
        return ledger.read(this::waits);
    }

    /** Current waits with their holders; call under the ledger. */
    public List<WaitView> waits(World world) {
        return graph.views(world);
    }

    // ---- inside transactions

    /** Waiting acquires, as the lock table reports them. */
    private final class AcquireWaits implements WaitObserver {
        @Override
        public void waitStarted(Transaction tx, String sessionId, List<String> files) {
            files.forEach(file -> startWait(tx, sessionId, file, WaitKind.ACQUIRE, null));
            detect(tx, Cause.of(null));
        }

        @Override
        public void waitEnded(Transaction tx, String sessionId, List<String> files) {
            boolean ended = false;
            for (String file : files) {
                Optional<Wait> wait = graph.get(sessionId, file, WaitKind.ACQUIRE);
                if (wait.isPresent()) {
                    boolean got = tx.world().lock(file).map(lock -> lock.sessionId().equals(sessionId)).orElse(false);
                    endWait(tx, wait.get(), got ? "acquired" : "stopped");
                    ended = true;
                }
            }
            if (ended) {
                detect(tx, Cause.of("wait-ended"));
            }
        }
    }

    /** Ends waits that the transaction satisfied or made moot, expires denied waits, and looks again. */
    private void beforeCommit(Transaction tx, List<Change> changes) {
        if (graph.isEmpty() && open.isEmpty()) {
            return;
        }
        boolean relevant = false;
        for (Change change : changes) {
            if (change instanceof Change.LockSaved saved && saved.newlyAcquired()) {
                relevant = true;
                FileLock lock = saved.lock();
                for (Wait wait : graph.of(lock.sessionId())) {
                    if (wait.file().equals(lock.file())) {
                        endWait(tx, wait, "acquired");
                    }
                }
            } else if (change instanceof Change.LockRemoved) {
                relevant = true;
            } else if (change instanceof Change.SessionRemoved removed) {
                relevant = true;
                graph.of(removed.session().id()).forEach(wait -> endWait(tx, wait, removed.reason().wireName()));
            }
        }
        boolean expired = expire(tx);
        if (relevant || expired) {
            detect(tx, new Cause(changes, expired ? "expired" : null));
        }
    }

    private void expireDeniedWaits() {
        if (graph.expiring() == 0) {
            return;
        }
        try {
            ledger.write(tx -> {
                if (expire(tx)) {
                    detect(tx, Cause.of("expired"));
                }
                return null;
            });
        } catch (RuntimeException e) {
            // the next check retries; a failing store is reported by the requests that write to it
        }
    }

    private boolean expire(Transaction tx) {
        List<Wait> expired = graph.expired(tx.now());
        expired.forEach(wait -> endWait(tx, wait, "expired"));
        return !expired.isEmpty();
    }

    private void startWait(Transaction tx, String waiter, String file, WaitKind kind, Instant expiresAt) {
        Optional<Wait> known = graph.get(waiter, file, kind);
        if (known.isPresent()) {
            if (expiresAt != null) {
                graph.put(tx, known.get(), expiresAt);
            }
            return;
        }
        Wait wait = new Wait(waiter, file, kind, tx.now());
        graph.put(tx, wait, expiresAt);
        tx.record(new Change.WaitStarted(wait));
    }

    private void endWait(Transaction tx, Wait wait, String how) {
        graph.remove(tx, wait);
        tx.record(new Change.WaitEnded(wait, how));
    }

    /** Compares the cycles in the graph now with the open deadlocks: new ones are detected, gone ones resolved. */
    private void detect(Transaction tx, Cause cause) {
        World world = tx.world();
        Map<String, Map<String, SortedSet<String>>> edges = graph.edges(world);
        CycleFinder.Cycles found = edges.isEmpty() ? new CycleFinder.Cycles(List.of(), true)
                : CycleFinder.find(edges, CYCLE_LIMIT);
        Map<String, Cycle> current = new LinkedHashMap<>();
        found.cycles().forEach(cycle -> current.put(cycle.key(), cycle));
        for (OpenDeadlock deadlock : List.copyOf(open.values())) {
            if (!current.containsKey(deadlock.key()) && (found.complete() || !deadlock.stillIn(edges))) {
                resolve(tx, deadlock, cause.how(deadlock));
            }
        }
        List<OpenDeadlock> detected = new ArrayList<>();
        for (Cycle cycle : current.values()) {
            if (!open.containsKey(cycle.key())) {
                detected.add(report(tx, cycle));
            }
        }
        if (settings.policy() == DeadlockPolicy.AUTO_RELEASE && autoRelease(tx, detected)) {
            detect(tx, Cause.of("auto-released"));
        }
    }

    private OpenDeadlock report(Transaction tx, Cycle cycle) {
        World world = tx.world();
        String victim = cycle.sessions().stream()
                .max(Comparator.comparing((String id) -> world.session(id).map(Session::startedAt).orElse(Instant.MIN))
                        .thenComparing(Comparator.naturalOrder()))
                .orElseThrow();
        Deadlock deadlock = new Deadlock(idOf(cycle, tx.now()), cycle.sessions(), cycle.allFiles(), victim, tx.now());
        OpenDeadlock opened = new OpenDeadlock(cycle, deadlock, DeadlockText.advice(deadlock, cycle, world),
                DeadlockText.note(deadlock, cycle, world));
        open.put(opened.key(), opened);
        tx.onRollback(() -> open.remove(opened.key()));
        tx.record(new Change.DeadlockDetected(deadlock));
        for (String session : cycle.sessions()) {
            for (String file : cycle.filesWaitedBy(session)) {
                tx.audit("deadlock-detected", session, file, deadlock.id() + ": waits for " + cycle.next(session)
                        + "; victim " + victim, cycle.next(session));
            }
        }
        return opened;
    }

    private void resolve(Transaction tx, OpenDeadlock deadlock, String how) {
        open.remove(deadlock.key());
        tx.onRollback(() -> open.put(deadlock.key(), deadlock));
        tx.record(new Change.DeadlockResolved(deadlock.deadlock, how));
        for (String file : deadlock.deadlock.files()) {
            tx.audit("deadlock-resolved", deadlock.deadlock.victim(), file, deadlock.deadlock.id() + ": " + how, null);
        }
    }

    /**
     * Releases, for each new deadlock, the victim's files that the cycle waits for and that have no edit
     * in flight (a file mid-edit stays; the victim is then only advised). True when anything was freed.
     */
    private boolean autoRelease(Transaction tx, List<OpenDeadlock> detected) {
        boolean freed = false;
        for (OpenDeadlock deadlock : detected) {
            String victim = deadlock.deadlock.victim();
            for (String file : deadlock.advice.files()) {
                Optional<FileLock> lock = tx.world().lock(file)
                        .filter(held -> held.sessionId().equals(victim) && !held.editInFlight());
                if (lock.isPresent()) {
                    tx.removeLock(lock.get(), ReleaseReason.DEADLOCK, "baton");
                    tx.audit("release", victim, file, ReleaseReason.DEADLOCK.wireName(), "baton");
                    freed = true;
                }
            }
        }
        return freed;
    }

    private static String idOf(Cycle cycle, Instant at) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((cycle.key() + "@" + at.toEpochMilli()).getBytes(StandardCharsets.UTF_8));
            return "dl-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** What broke a deadlock, read from the transaction that broke it. */
    private record Cause(List<Change> changes, String fallback) {

        static Cause of(String how) {
            return new Cause(List.of(), how);
        }

        String how(OpenDeadlock deadlock) {
            for (Change change : changes) {
                if (change instanceof Change.SessionRemoved removed && deadlock.involves(removed.session().id())) {
                    return removed.reason().wireName();
                }
            }
            for (Change change : changes) {
                if (change instanceof Change.LockRemoved removed && deadlock.involvesFile(removed.lock().file())) {
                    return removed.reason() == ReleaseReason.DEADLOCK ? "auto-released" : removed.reason().wireName();
                }
                if (change instanceof Change.LockSaved saved && saved.newlyAcquired()
                        && deadlock.involvesFile(saved.lock().file())) {
                    return "holder-changed";
                }
            }
            return fallback == null ? "wait-ended" : fallback;
        }
    }
}
