package dev.baton.deadlock;

import dev.baton.Baton;
import dev.baton.deadlock.DeadlockDetector.Cause;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockChange;
import dev.baton.lock.LockRows;
import dev.baton.lock.WaitObserver;
import dev.baton.session.SessionRows;
import dev.baton.state.AuditEntry;
import dev.baton.state.Change;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
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

    private static final long EXPIRY_CHECK_MILLIS = 500;

    private final Ledger ledger;
    private final DeadlockSettings settings;
    private final WaitForGraph graph = new WaitForGraph();
    /** The window end each open denied-edit wait was last audited with; changed under the ledger only. */
    private final java.util.Map<String, Instant> recordedUntil = new java.util.HashMap<>();
    private final DeadlockDetector detector;
    private final ScheduledExecutorService expiry;

    private Deadlocks(Baton baton, DeadlockSettings settings) {
        this.ledger = baton.ledger();
        this.settings = settings;
        this.detector = new DeadlockDetector(graph, settings.policy());
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
        deadlocks.restoreDeniedWaits();
        deadlocks.expiry.scheduleWithFixedDelay(deadlocks::expireDeniedWaits, EXPIRY_CHECK_MILLIS, EXPIRY_CHECK_MILLIS,
                TimeUnit.MILLISECONDS);
        baton.ledger().addCloseHook(deadlocks.expiry::shutdownNow);
        return deadlocks;
    }

    /** The audit action that records a denied-edit wait and its end of window, so that it survives a restart. */
    static final String DENIED_WAIT_ACTION = "wait-denied";
    /** How far back each held file's history is read for denied waits at start. */
    private static final int HISTORY_DEPTH = 200;

    /**
     * Brings back the denied-edit waits that were open when the sidecar stopped: each was audited
     * ({@value #DENIED_WAIT_ACTION}, with the end of its window) in the transaction that started or moved it, so
     * the durable history of every held file says who was still waiting for it. A wait is back unless its window
     * has passed, its waiter has ended, or the waiter took the file after it.
     */
    private void restoreDeniedWaits() {
        record Denied(String waiter, String file, Instant until) {
        }
        List<Denied> denied = ledger.read(world -> {
            List<Denied> found = new java.util.ArrayList<>();
            for (FileLock lock : world.rows(LockRows.FILES)) {
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (AuditEntry entry : ledger.store().history(lock.file(), HISTORY_DEPTH)) { // newest first
                    String waiter = entry.sessionId();
                    boolean took = "acquire".equals(entry.action());
                    if (waiter == null || !(took || DENIED_WAIT_ACTION.equals(entry.action())) || !seen.add(waiter)) {
                        continue; // each session's newest wait or take of the file says where it stands
                    }
                    if (!took) {
                        until(entry).ifPresent(until -> found.add(new Denied(waiter, lock.file(), until)));
                    }
                }
            }
            return found;
        });
        if (denied.isEmpty()) {
            return;
        }
        ledger.write(tx -> {
            for (Denied wait : denied) {
                boolean open = wait.until().isAfter(tx.now())
                        && tx.world().find(SessionRows.SESSIONS, wait.waiter()).isPresent()
                        && !holds(tx.world(), wait.waiter(), wait.file());
                if (open && graph.get(wait.waiter(), wait.file(), WaitKind.DENIED).isEmpty()) {
                    Wait restored = new Wait(wait.waiter(), wait.file(), WaitKind.DENIED, tx.now());
                    graph.put(tx, restored, wait.until());
                    recordedUntil.put(recordKey(wait.waiter(), wait.file()), wait.until());
                    tx.record(new DeadlockChange.WaitStarted(restored));
                }
            }
            detector.detect(tx, Cause.of(null));
            return null;
        });
    }

    private static Optional<Instant> until(AuditEntry entry) {
        try {
            return Optional.of(Instant.parse(entry.reason()));
        } catch (RuntimeException e) {
            return Optional.empty(); // not written by this class: no wait to bring back
        }
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
        if (world.find(SessionRows.SESSIONS, sessionId).isEmpty() || holds(world, sessionId, file)) {
            return;
        }
        startWait(tx, sessionId, file, WaitKind.DENIED, tx.now().plus(settings.deniedWindow()));
        detector.detect(tx, Cause.of(null));
    }

    /** A negotiation for {@code file} by {@code requester} is pending: an edge to whoever holds the file. */
    public void negotiationOpened(Transaction tx, String requester, String file) {
        if (tx.world().find(SessionRows.SESSIONS, requester).isEmpty()) {
            return;
        }
        startWait(tx, requester, file, WaitKind.NEGOTIATION, null);
        detector.detect(tx, Cause.of(null));
    }

    /** The negotiation is over (answered, resolved, timed out, withdrawn); {@code how} says which. */
    public void negotiationClosed(Transaction tx, String requester, String file, String how) {
        graph.get(requester, file, WaitKind.NEGOTIATION).ifPresent(wait -> {
            endWait(tx, wait, how);
            detector.detect(tx, Cause.of(how));
        });
    }

    /**
     * The edges through other machines of a team changed (a team sidecar reads them from its database): cycles through
     * several machines are looked for with this machine's own edges. Nothing is written when they are as known.
     */
    public void teamWaits(TeamWaits now) {
        ledger.write(tx -> {
            if (detector.team(tx, now)) {
                detector.detect(tx, Cause.of(null));
            }
            return null;
        });
    }

    /** For the victim's next hook call: the instruction to release, once per deadlock; empty otherwise. */
    public Optional<DeadlockAdvice> takeAdvice(String sessionId) {
        return ledger.read(world -> detector.open().stream()
                .filter(d -> d.deadlock.victim().equals(sessionId) && !d.adviceTaken)
                .findFirst()
                .map(d -> {
                    d.adviceTaken = true;
                    return d.advice;
                }));
    }

    /** For any member's deny message while its deadlock is open: a sentence naming the cycle. */
    public Optional<String> denyNote(String sessionId) {
        return ledger.read(world -> detector.open().stream().filter(d -> d.involves(sessionId)).findFirst().map(d -> d.note));
    }

    public List<Deadlock> deadlocks() {
        return ledger.read(this::deadlocks);
    }

    /** Open deadlocks; call under the ledger (inside {@code read} or a transaction). */
    public List<Deadlock> deadlocks(World world) {
        return detector.open().stream().map(d -> d.deadlock).toList();
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
            detector.detect(tx, Cause.of(null));
        }

        @Override
        public Optional<String> deadlockOf(String sessionId) {
            return ledger.read(world -> detector.open().stream()
                    .filter(d -> d.involves(sessionId) && d.cycle.filesWaitedBy(sessionId).stream()
                            .anyMatch(file -> graph.get(sessionId, file, WaitKind.ACQUIRE).isPresent()))
                    .findFirst()
                    .map(d -> d.note));
        }

        /**
         * An acquire returns on the first file it gets; without one, its time ran out (or it was cut short), or
         * it was told of the deadlock it is in. A waiter told of a deadlock still wants its files: like a denied
         * edit, each counts as a wait for the denied-edit window, so the deadlock stays open (advice, notes)
         * until it is broken or the window passes.
         */
        @Override
        public void waitEnded(Transaction tx, String sessionId, List<String> files) {
            World world = tx.world();
            boolean gotOne = files.stream().anyMatch(file -> holds(world, sessionId, file));
            boolean told = !gotOne && detector.open().stream().anyMatch(d -> d.involves(sessionId));
            String how = gotOne ? "stopped" : told ? "deadlock" : "timeout";
            boolean ended = false;
            for (String file : files) {
                Optional<Wait> wait = graph.get(sessionId, file, WaitKind.ACQUIRE);
                if (wait.isPresent()) {
                    boolean got = holds(world, sessionId, file);
                    endWait(tx, wait.get(), got ? "acquired" : how);
                    if (told && !got) {
                        startWait(tx, sessionId, file, WaitKind.DENIED, tx.now().plus(settings.deniedWindow()));
                    }
                    ended = true;
                }
            }
            if (ended) {
                detector.detect(tx, Cause.of(how));
            }
        }
    }

    /** Ends waits that the transaction satisfied or made moot, expires denied waits, and looks again. */
    private void beforeCommit(Transaction tx, List<Change> changes) {
        if (graph.isEmpty() && detector.isEmpty()) {
            return;
        }
        boolean relevant = false;
        for (Change change : changes) {
            if (change instanceof LockChange.LockSaved saved && saved.newlyAcquired()) {
                relevant = true;
                FileLock lock = saved.lock();
                for (Wait wait : graph.of(lock.sessionId())) {
                    if (wait.file().equals(lock.file())) {
                        endWait(tx, wait, "acquired");
                    }
                }
            } else if (change instanceof LockChange.LockRemoved) {
                relevant = true;
            } else if (change instanceof LockChange.SessionRemoved removed) {
                relevant = true;
                graph.of(removed.session().id()).forEach(wait -> endWait(tx, wait, removed.reason().wireName()));
            }
        }
        boolean expired = expire(tx);
        if (relevant || expired) {
            detector.detect(tx, new Cause(changes, expired ? "expired" : null));
        }
    }

    private void expireDeniedWaits() {
        if (graph.expiring() == 0) {
            return;
        }
        try {
            ledger.write(tx -> {
                if (expire(tx)) {
                    detector.detect(tx, Cause.of("expired"));
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
        if (kind == WaitKind.DENIED) {
            recordDeniedWait(tx, waiter, file, expiresAt, known.isEmpty());
        }
        if (known.isPresent()) {
            if (expiresAt != null) {
                graph.put(tx, known.get(), expiresAt);
            }
            return;
        }
        Wait wait = new Wait(waiter, file, kind, tx.now());
        graph.put(tx, wait, expiresAt);
        tx.record(new DeadlockChange.WaitStarted(wait));
    }

    private void endWait(Transaction tx, Wait wait, String how) {
        graph.remove(tx, wait);
        tx.record(new DeadlockChange.WaitEnded(wait, how));
        if (wait.kind() == WaitKind.DENIED) {
            String key = recordKey(wait.waiter(), wait.file());
            Instant before = recordedUntil.remove(key);
            if (before != null) {
                tx.onRollback(() -> recordedUntil.put(key, before));
            }
        }
    }

    /**
     * Audits a denied-edit wait with the end of its window, so that it survives a restart: once when it starts, and
     * again only when a later denial has moved its end more than half a window past the one recorded. An agent denied
     * again and again (it retries, or its waiting acquire keeps meeting the deadlock) writes about one entry a minute,
     * not one per denial, and a restart brings its wait back with at least half its window.
     */
    private void recordDeniedWait(Transaction tx, String waiter, String file, Instant until, boolean started) {
        String key = recordKey(waiter, file);
        Instant recorded = recordedUntil.get(key);
        if (!started && recorded != null && !recorded.plus(settings.deniedWindow().dividedBy(2)).isBefore(until)) {
            return;
        }
        tx.audit(DENIED_WAIT_ACTION, waiter, file, until.toString(),
                tx.world().find(LockRows.FILES, file).map(FileLock::sessionId).orElse(null));
        recordedUntil.put(key, until);
        tx.onRollback(() -> {
            if (recorded == null) {
                recordedUntil.remove(key);
            } else {
                recordedUntil.put(key, recorded);
            }
        });
    }

    private static String recordKey(String waiter, String file) {
        return waiter + '\u0000' + file;
    }

    private static boolean holds(World world, String sessionId, String file) {
        return world.find(LockRows.FILES, file).map(lock -> lock.sessionId().equals(sessionId)).orElse(false);
    }
}
