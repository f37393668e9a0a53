package dev.baton.lock;

import dev.baton.liveness.HolderLiveness;
import dev.baton.liveness.Staleness;
import dev.baton.session.Session;
import dev.baton.session.SessionAddress;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Re-entrant, exclusive, per-session file locks. A file held by a stale holder (process gone,
 * heartbeat expired) is freed the moment someone else asks for it, so a stale lock never blocks.
 */
public final class LockTable {

    /** How often a waiting acquire looks again even without a commit: a holder may exit silently. */
    private static final Duration RECHECK = Duration.ofMillis(500);
    static final Duration HEARTBEAT_RESOLUTION = Duration.ofSeconds(5);

    private final Ledger ledger;
    private final HolderLiveness liveness;
    private final SharedLockSpace shared;
    private final FileAliases aliases = new FileAliases();
    private final RepositoryCopies names;
    private final CopyIndex copies = new CopyIndex();
    private final CopyNotices copyNotices = new CopyNotices();
    private volatile WaitObserver waitObserver = WaitObserver.NONE;

    public LockTable(Ledger ledger, HolderLiveness liveness) {
        this(ledger, liveness, SharedLockSpace.LOCAL, RepositoryCopies.NONE);
    }

    /**
     * @param shared the lock space shared with other machines; {@link SharedLockSpace#LOCAL} on one machine
     * @param names  how a file is named among the copies of its repository on this machine (worktrees, clones)
     */
    public LockTable(Ledger ledger, HolderLiveness liveness, SharedLockSpace shared, RepositoryCopies names) {
        this.ledger = ledger;
        this.liveness = liveness;
        this.shared = shared;
        this.names = names;
        ledger.addListener(changes -> changes.forEach(change -> {
            if (change instanceof LockChange.LockRemoved removed) {
                aliases.forget(removed.lock().file());
            }
        }));
    }

    /** The one observer of waiting acquires (the wait-for graph). */
    public void observeWaits(WaitObserver observer) {
        this.waitObserver = observer;
    }

    /**
     * Takes the files for the session. With {@code wait} above zero it waits until at least one
     * blocked file was taken, keeping everything taken on the way. With {@code allOrNothing} a
     * conflict on any file takes none of the new ones (an agent's single edit needs all its files).
     */
    public AcquireOutcome acquire(AcquireRequest request) {
        List<String> files = sortedDistinct(request.files());
        boolean waits = !request.waitFor().isZero() && !request.allOrNothing();
        WaitObserver observer = waitObserver;
        Map<String, FileCopy> named = nameFirstTakes(files);
        Ledger.Tracked<Attempt> first = ledger.writeTracked(tx -> {
            Attempt attempt = attempt(tx, request, files, true, named);
            if (waits && attempt.isBlocked()) {
                observer.waitStarted(tx, request.sessionId(), attempt.heldFiles());
            }
            return attempt;
        });
        Attempt result = first.value();
        if (!result.isBlocked() || !waits) {
            return result.outcome();
        }
        List<String> waitedFor = result.heldFiles();
        long deadline = System.nanoTime() + request.waitFor().toNanos();
        long seen = first.version();
        String deadlock = observer.deadlockOf(request.sessionId()).orElse(null); // this wait may close a cycle
        try {
            while (deadlock == null && System.nanoTime() < deadline) {
                long slice = Math.min(deadline, System.nanoTime() + RECHECK.toNanos());
                ledger.awaitChange(seen, slice);
                List<String> pending = result.blockedFiles();
                Ledger.Tracked<Attempt> next = ledger.writeTracked(tx -> attempt(tx, request, pending, false, named));
                seen = next.version();
                boolean progress = next.value().blockedFiles().size() < pending.size();
                result = result.mergedWith(next.value());
                if (progress) {
                    break;
                }
                deadlock = observer.deadlockOf(request.sessionId()).orElse(null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (observer != WaitObserver.NONE) {
                ledger.write(tx -> {
                    observer.waitEnded(tx, request.sessionId(), waitedFor);
                    return null;
                });
            }
        }
        AcquireOutcome outcome = result.outcome();
        return deadlock == null ? outcome : new AcquireOutcome(outcome.results(), outcome.allAcquired(), deadlock);
    }

    /**
     * The copies of the files, named before the ledger is entered (naming a working tree the first time runs git). A
     * file taken before was named then, so a re-entrant edit names nothing and reads nothing (its branch is read again
     * only if another copy holds the file). The files held before this sidecar started are named on the first call.
     */
    private Map<String, FileCopy> nameFirstTakes(List<String> files) {
        if (names == RepositoryCopies.NONE) {
            return Map.of();
        }
        nameHeldFiles();
        Map<String, FileCopy> named = new TreeMap<>();
        for (String file : files) {
            Optional<FileCopy> known = copies.of(file);
            (known.isPresent() ? known : names.of(file)).ifPresent(copy -> named.put(file, copy));
        }
        return named;
    }

    /** Names, once, the files held before this sidecar started, so that their other copies are found. */
    private void nameHeldFiles() {
        if (copies.built()) {
            return;
        }
        synchronized (copies) {
            if (copies.built()) {
                return;
            }
            for (String file : ledger.read(copies::unnamed)) {
                names.of(file).ifPresent(copy -> copies.remember(file, copy));
            }
            copies.markBuilt();
        }
    }

    private Attempt attempt(Transaction tx, AcquireRequest request, List<String> files, boolean firstTry,
                            Map<String, FileCopy> named) {
        World world = tx.world();
        Session session = world.find(SessionRows.SESSIONS, request.sessionId())
                .orElseThrow(() -> BatonException.notFound("session " + request.sessionId()
                        + " is not registered; register it first (POST /v1/sessions) or start the agent again"));
        Attempt attempt = new Attempt();
        List<String> free = new ArrayList<>();
        for (String file : files) {
            FileLock held = world.find(LockRows.FILES, file).orElse(null);
            if (held == null) {
                // Another path to a file someone else holds (a hard link, a bind mount) is that file.
                held = aliases.heldAlias(world, file, lock -> !sharedWith(session, lock)).orElse(null);
                if (held != null) {
                    attempt.aliases.put(file, held.file());
                }
            }
            if (held != null && !sharedWith(session, held)) {
                Session holder = world.find(SessionRows.SESSIONS, held.sessionId()).orElse(null);
                if (holder != null && !freeIfStale(tx, holder)) {
                    attempt.blocked.put(file, held);
                    continue;
                }
                if (holder == null) {
                    LockRows.remove(tx, held, ReleaseReason.HOLDER_EXITED, null);
                }
                held = null;
                attempt.aliases.remove(file);
            }
            if (held == null) {
                FileCopy copy = named.get(file);
                if (copy != null && otherCopies(tx, session, file, copy, attempt)) {
                    continue;
                }
                free.add(file);
            } else {
                attempt.mine.put(file, held);
            }
        }
        if (firstTry || !free.isEmpty()) {
            // A retry that changes nothing must not commit: its commit would wake every other waiter,
            // whose retries would wake this one again, a busy loop of heartbeat writes.
            heartbeat(tx, session);
        }
        if (!attempt.mine.isEmpty()) {
            shared.lost(session, attempt.mine.keySet()).forEach((file, holder) -> {
                LockRows.remove(tx, attempt.mine.remove(file), ReleaseReason.TAKEN_OVER, null);
                tx.audit("release", session.id(), file, ReleaseReason.TAKEN_OVER.wireName(), null);
                attempt.elsewhere.put(file, holder);
            });
        }
        if (!free.isEmpty() && !(request.allOrNothing() && attempt.isBlocked())) {
            Map<String, Holder> elsewhere = shared.claim(session, free);
            attempt.elsewhere.putAll(elsewhere);
            free.removeAll(elsewhere.keySet());
            if (request.allOrNothing() && !elsewhere.isEmpty()) {
                shared.unclaim(free);
            }
        }
        if (request.allOrNothing() && attempt.isBlocked()) {
            attempt.refused.addAll(free);
        } else {
            for (String file : free) {
                FileLock lock = new FileLock(file, session.id(), tx.now(), null, request.startEdit());
                LockRows.save(tx, lock, true);
                tx.audit("acquire", session.id(), file, null, null);
                aliases.remember(file);
                FileCopy copy = named.get(file);
                if (copy != null) {
                    copies.remember(file, copy);
                }
                attempt.taken.add(file);
            }
            attempt.mine.values().forEach(lock -> {
                if (request.startEdit() && !lock.editInFlight()) {
                    LockRows.save(tx, lock.withEditStarted(), false);
                }
            });
        }
        if (firstTry) {
            attempt.blocked.forEach((file, lock) -> tx.audit("deny", session.id(), file, null, lock.sessionId()));
            attempt.elsewhere.forEach((file, holder) -> tx.audit("deny", session.id(), file, null,
                    holder.machine() == null ? holder.session() : SessionAddress.of(holder.machine(), holder.session())));
        }
        attempt.blocked.forEach((file, lock) -> attempt.holders.put(file, holderView(world, lock)));
        attempt.holders.putAll(attempt.elsewhere);
        attempt.copyOf.replaceAll((file, other) -> new HeldCopy(other.file(), other.worktree(), other.branch(),
                attempt.holders.get(file)));
        attempt.overlaps.keySet().retainAll(attempt.taken);
        attempt.overlaps.forEach((file, others) -> {
            Holder taker = holderView(world, world.find(LockRows.FILES, file).orElseThrow());
            others.forEach(other -> copyNotices.tell(other, named.get(file), taker));
        });
        return attempt;
    }

    /**
     * Looks for {@code file} held in other copies of its repository. The same branch shares one lock (the file is
     * blocked, true); another branch, by the repository's rule, blocks too, is noted for both sessions, or is not
     * looked at.
     */
    private boolean otherCopies(Transaction tx, Session session, String file, FileCopy copy, Attempt attempt) {
        World world = tx.world();
        Map<String, FileCopy> others = new TreeMap<>(copies.otherCopies(world, copy));
        if (!others.isEmpty()) {
            copy = copy.onBranch(names.branchOf(copy.worktree()).orElse(copy.branch())); // as it is now
        }
        for (Map.Entry<String, FileCopy> other : others.entrySet()) {
            FileLock lock = world.find(LockRows.FILES, other.getKey()).orElseThrow();
            if (sharedWith(session, lock)) {
                continue;
            }
            Session holder = world.find(SessionRows.SESSIONS, lock.sessionId()).orElse(null);
            if (holder == null || freeIfStale(tx, holder)) {
                continue;
            }
            FileCopy theirs = other.getValue().onBranch(names.branchOf(other.getValue().worktree()).orElse(null));
            boolean sameBranch = copy.branch() != null && copy.branch().equals(theirs.branch());
            if (sameBranch || copy.rule() == BranchRule.LOCK) {
                attempt.blocked.put(file, lock);
                attempt.copyOf.put(file, new HeldCopy(lock.file(), theirs.worktree(), theirs.branch(), null));
                attempt.overlaps.remove(file);
                return true;
            }
            if (copy.rule() == BranchRule.TELL) {
                attempt.overlaps.computeIfAbsent(file, key -> new ArrayList<>())
                        .add(new HeldCopy(lock.file(), theirs.worktree(), theirs.branch(), holderView(world, lock)));
            }
        }
        return false;
    }

    /**
     * Records that the session was heard from. Heartbeats matter at minute scale (the TTL is 30 min),
     * so one is written at most every few seconds: a store write saved on most lock operations.
     */
    static void heartbeat(Transaction tx, Session session) {
        if (Duration.between(session.lastHeartbeat(), tx.now()).compareTo(HEARTBEAT_RESOLUTION) >= 0) {
            SessionRows.save(tx, session.withHeartbeat(tx.now()));
        }
    }

    /** A subagent may edit what its parent holds; siblings and strangers may not. */
    private static boolean sharedWith(Session session, FileLock held) {
        return held.sessionId().equals(session.id()) || held.sessionId().equals(session.parentId());
    }

    /** Frees every lock of a stale holder; true when it was stale. */
    public boolean freeIfStale(Transaction tx, Session holder) {
        Staleness staleness = liveness.of(holder, tx.now());
        switch (staleness) {
            case PROCESS_EXITED -> {
                endSession(tx, holder, ReleaseReason.HOLDER_EXITED, null);
                return true;
            }
            case HEARTBEAT_EXPIRED -> {
                releaseAllOf(tx, holder.id(), ReleaseReason.HEARTBEAT_EXPIRED, null);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    public ReleaseOutcome release(String sessionId, Collection<String> files, ReleaseReason reason) {
        if (files.isEmpty()) {
            throw BatonException.invalid("nothing to release: name at least one file, or release all");
        }
        return ledger.write(tx -> {
            Session session = requireSession(tx.world(), sessionId);
            List<String> released = new ArrayList<>();
            List<String> notHeld = new ArrayList<>();
            for (String file : sortedDistinct(files)) {
                // A parent may release what its subagents hold: their work is the parent's.
                Optional<FileLock> held = tx.world().find(LockRows.FILES, file)
                        .filter(lock -> lock.sessionId().equals(session.id()) || tx.world().find(SessionRows.SESSIONS, lock.sessionId())
                                .map(s -> session.id().equals(s.parentId())).orElse(false));
                if (held.isPresent()) {
                    LockRows.remove(tx, held.get(), reason, null);
                    tx.audit("release", held.get().sessionId(), file, reason.wireName(), null);
                    released.add(file);
                } else {
                    notHeld.add(file);
                }
            }
            heartbeat(tx, session);
            return new ReleaseOutcome(released, notHeld);
        });
    }

    public ReleaseOutcome releaseAll(String sessionId, ReleaseReason reason) {
        return ledger.write(tx -> {
            Session session = requireSession(tx.world(), sessionId);
            List<String> released = releaseAllOf(tx, session.id(), reason, null);
            heartbeat(tx, session);
            return new ReleaseOutcome(released, List.of());
        });
    }

    /** Releases whatever holds {@code file}, on a supervisor's or a negotiation's authority. */
    public Optional<FileLock> forceRelease(String file, String actor) {
        return ledger.write(tx -> tx.world().find(LockRows.FILES, file).map(lock -> {
            LockRows.remove(tx, lock, ReleaseReason.FORCED, actor);
            tx.audit("release", lock.sessionId(), file, ReleaseReason.FORCED.wireName(), actor);
            return lock;
        }));
    }

    /** Marks the session's edit of these files complete (PostToolUse): last-edit time, heartbeat. */
    public void editDone(String sessionId, Collection<String> files) {
        ledger.write(tx -> {
            Session session = requireSession(tx.world(), sessionId);
            for (String file : files) {
                tx.world().find(LockRows.FILES, file)
                        .filter(lock -> sharedWith(session, lock))
                        .ifPresent(lock -> {
                            LockRows.save(tx, lock.withEditDone(tx.now()), false);
                            aliases.remember(file); // created by the edit, or replaced by a new file under its name
                        });
            }
            heartbeat(tx, session);
            return null;
        });
    }

    /**
     * Ends the edits in flight of these sessions without recording an edit: the agent said that no tool call
     * is running (its turn ended, or the tool failed or was refused), so none of them is still writing. With
     * {@code files} null every lock of the sessions counts; otherwise only those files.
     */
    public void editsEnded(Collection<String> sessionIds, Collection<String> files) {
        ledger.write(tx -> {
            for (String sessionId : sessionIds) {
                for (String file : List.copyOf(tx.world().keysIn(LockRows.FILES, sessionId))) {
                    tx.world().find(LockRows.FILES, file)
                            .filter(lock -> lock.editInFlight() && (files == null || files.contains(file)))
                            .ifPresent(lock -> LockRows.save(tx, new FileLock(lock.file(), lock.sessionId(),
                                    lock.acquiredAt(), lock.lastEditAt(), false), false));
                }
            }
            return null;
        });
    }

    /**
     * A finished subagent hands its locks to its parent (its edits are the parent's work now) and ends: each
     * lock keeps its times and goes to the parent, audited as {@code hand-back}. Returns the locks as the
     * parent now holds them; empty when the subagent is not registered.
     */
    public List<FileLock> handBack(String subagentId) {
        return ledger.write(tx -> {
            Session sub = tx.world().find(SessionRows.SESSIONS, subagentId).orElse(null);
            if (sub == null || sub.parentId() == null || tx.world().find(SessionRows.SESSIONS, sub.parentId()).isEmpty()) {
                return List.<FileLock>of();
            }
            List<FileLock> handed = new ArrayList<>();
            for (String file : List.copyOf(tx.world().keysIn(LockRows.FILES, sub.id()))) {
                FileLock lock = tx.world().find(LockRows.FILES, file).orElseThrow();
                FileLock parents = new FileLock(file, sub.parentId(), lock.acquiredAt(), lock.lastEditAt(), false);
                LockRows.remove(tx, lock, ReleaseReason.HANDED_BACK, null);
                LockRows.save(tx, parents, true);
                tx.audit("hand-back", sub.id(), file, ReleaseReason.HANDED_BACK.wireName(), sub.parentId());
                handed.add(parents);
            }
            LockRows.removeSession(tx, sub, ReleaseReason.HANDED_BACK);
            return handed;
        });
    }

    /** The session's locks as they are now, for a decision (a git check) made outside the ledger. */
    public List<FileLock> locksOf(String sessionId) {
        return ledger.read(world -> world.keysIn(LockRows.FILES, sessionId).stream()
                .map(file -> world.find(LockRows.FILES, file).orElseThrow())
                .toList());
    }

    /**
     * Releases each observed lock only if it is exactly as observed: not re-acquired, no edit started
     * or finished since. A decision taken outside the ledger (the git check at turn end) therefore
     * cannot free a file that an edit touched after the check.
     */
    public ReleaseOutcome releaseIfUnchanged(String sessionId, Collection<FileLock> observed, ReleaseReason reason) {
        return ledger.write(tx -> {
            Session session = requireSession(tx.world(), sessionId);
            List<String> released = new ArrayList<>();
            List<String> kept = new ArrayList<>();
            for (FileLock seen : observed) {
                Optional<FileLock> now = tx.world().find(LockRows.FILES, seen.file());
                if (now.isPresent() && now.get().equals(seen) && !seen.editInFlight()) {
                    LockRows.remove(tx, seen, reason, null);
                    tx.audit("release", seen.sessionId(), seen.file(), reason.wireName(), null);
                    released.add(seen.file());
                } else {
                    kept.add(seen.file());
                }
            }
            heartbeat(tx, session);
            return new ReleaseOutcome(released, kept);
        });
    }

    /** Frees every stale holder's locks (and ends sessions whose process is gone); what the sweeper runs. */
    public List<FreedHolder> cleanupStale() {
        nameHeldFiles();
        return ledger.write(tx -> {
            List<FreedHolder> freed = new ArrayList<>();
            for (Session session : List.copyOf(tx.world().rows(SessionRows.SESSIONS))) {
                if (tx.world().find(SessionRows.SESSIONS, session.id()).isEmpty()) {
                    continue; // ended with its parent earlier in this sweep
                }
                Staleness staleness = liveness.of(session, tx.now());
                if (staleness == Staleness.FRESH) {
                    continue;
                }
                boolean holdsLocks = !tx.world().keysIn(LockRows.FILES, session.id()).isEmpty();
                List<String> files = new ArrayList<>(tx.world().keysIn(LockRows.FILES, session.id()));
                if (staleness == Staleness.PROCESS_EXITED) {
                    SessionRows.subagentsOf(tx.world(), session.id())
                            .forEach(sub -> files.addAll(tx.world().keysIn(LockRows.FILES, sub.id())));
                    endSession(tx, session, ReleaseReason.HOLDER_EXITED, null);
                    freed.add(new FreedHolder(session.id(), ReleaseReason.HOLDER_EXITED.wireName(), files));
                } else if (holdsLocks) {
                    releaseAllOf(tx, session.id(), ReleaseReason.HEARTBEAT_EXPIRED, null);
                    freed.add(new FreedHolder(session.id(), ReleaseReason.HEARTBEAT_EXPIRED.wireName(), files));
                }
            }
            freed.addAll(releaseRemovedCopies(tx));
            return freed;
        });
    }

    /**
     * Ends the holds of files whose working tree is gone (a removed worktree, a deleted clone), and forgets the copies
     * of files no longer held: under the ledger, so no acquire takes one meanwhile.
     */
    private List<FreedHolder> releaseRemovedCopies(Transaction tx) {
        Map<String, List<String>> bySession = new TreeMap<>();
        copies.all().forEach((file, copy) -> {
            if (tx.world().find(LockRows.FILES, file).isEmpty()) {
                copies.forget(file);
            } else if (!names.exists(copy.worktree())) {
                tx.world().find(LockRows.FILES, file).ifPresent(lock -> {
                    LockRows.remove(tx, lock, ReleaseReason.WORKTREE_REMOVED, null);
                    tx.audit("release", lock.sessionId(), file, ReleaseReason.WORKTREE_REMOVED.wireName(), null);
                    bySession.computeIfAbsent(lock.sessionId(), id -> new ArrayList<>()).add(file);
                });
            }
        });
        List<FreedHolder> freed = new ArrayList<>();
        bySession.forEach((session, files) -> freed.add(new FreedHolder(session,
                ReleaseReason.WORKTREE_REMOVED.wireName(), List.copyOf(new TreeSet<>(files)))));
        return freed;
    }

    /** Releases all of a session's locks inside a running transaction; returns the files, sorted. */
    public List<String> releaseAllOf(Transaction tx, String sessionId, ReleaseReason reason, String actor) {
        List<String> files = List.copyOf(tx.world().keysIn(LockRows.FILES, sessionId));
        for (String file : files) {
            tx.world().find(LockRows.FILES, file).ifPresent(lock -> {
                LockRows.remove(tx, lock, reason, actor);
                tx.audit("release", sessionId, file, reason.wireName(), actor);
            });
        }
        return files;
    }

    /** Ends a session and its subagents, releasing everything they hold. */
    public List<String> endSession(Transaction tx, Session session, ReleaseReason reason, String actor) {
        List<String> released = new ArrayList<>();
        for (Session sub : SessionRows.subagentsOf(tx.world(), session.id())) {
            released.addAll(releaseAllOf(tx, sub.id(), reason, actor));
            LockRows.removeSession(tx, sub, reason);
        }
        released.addAll(releaseAllOf(tx, session.id(), reason, actor));
        LockRows.removeSession(tx, session, reason);
        tx.audit("session-end", session.id(), null, reason.wireName(), actor);
        return released;
    }

    /**
     * True when {@code file} is another path (a hard link, a bind mount) to a file someone holds: such a path is
     * locked like that file even where paths are not (outside a repository, an ignored directory).
     */
    public boolean isAnotherPathToAHeldFile(String file) {
        return ledger.read(world -> world.find(LockRows.FILES, file).isEmpty()
                && aliases.heldAlias(world, file, lock -> true).isPresent());
    }

    public Optional<Holder> holderOf(String file) {
        return ledger.read(world -> world.find(LockRows.FILES, file).map(lock -> holderView(world, lock)));
    }

    public Holder holderView(World world, FileLock lock) {
        Session session = world.find(SessionRows.SESSIONS, lock.sessionId()).orElse(null);
        if (session == null) {
            return new Holder(lock.sessionId(), null, null, "exited", null, null, lock.acquiredAt(), lock.lastEditAt(),
                    null, null, null);
        }
        return new Holder(session.id(), session.agent().wireName(),
                session.process() == null ? null : session.process().pid(),
                liveness.processOf(session).wireName(), session.host(), session.cwd(),
                lock.acquiredAt(), lock.lastEditAt(), session.lastHeartbeat(), session.name(),
                session.plan() == null ? null : session.plan().summary());
    }

    /** What sessions are told, once, of other copies of the repository that started changing their files. */
    public CopyNotices copyNotices() {
        return copyNotices;
    }

    /** The copy a held file was taken in; empty for a file of no repository, or one not named yet. */
    public Optional<FileCopy> copyOf(String file) {
        return copies.of(file);
    }

    /**
     * Every file held in more than one copy of its repository (worktrees, clones) now, with the copies holding it,
     * sorted by repository and path; the branches as they are now.
     */
    public List<CopiesOfAFile> heldInSeveralCopies() {
        nameHeldFiles();
        Map<String, List<HeldCopy>> byPath = new TreeMap<>();
        Map<String, FileCopy> first = new TreeMap<>();
        ledger.read(world -> {
            copies.all().forEach((file, copy) -> world.find(LockRows.FILES, file).ifPresent(lock -> {
                String key = copy.repository() + "\n" + copy.path();
                first.putIfAbsent(key, copy);
                byPath.computeIfAbsent(key, k -> new ArrayList<>()).add(new HeldCopy(file, copy.worktree(),
                        names.branchOf(copy.worktree()).orElse(copy.branch()), holderView(world, lock)));
            }));
            return null;
        });
        List<CopiesOfAFile> several = new ArrayList<>();
        byPath.forEach((key, held) -> {
            if (held.size() > 1) {
                held.sort(Comparator.comparing(HeldCopy::worktree));
                several.add(new CopiesOfAFile(first.get(key).repository(), first.get(key).path(), List.copyOf(held)));
            }
        });
        return several;
    }

    /** Who holds the file on another machine of the team, as last heard; empty without a team or such a holder. */
    public Optional<Holder> heldElsewhere(String file) {
        return shared.knownHolder(file);
    }

    /** Whether a clean file may go back at a turn's end ({@link SharedLockSpace#mayRelease}); runs outside the ledger. */
    public boolean mayReleaseWhenClean(String file) {
        return shared.mayRelease(file);
    }

    public HolderLiveness liveness() {
        return liveness;
    }

    private static Session requireSession(World world, String sessionId) {
        return world.find(SessionRows.SESSIONS, sessionId).orElseThrow(() -> BatonException.notFound(
                "session " + sessionId + " is not registered (it may have ended or been cleaned up as stale)"));
    }

    private static List<String> sortedDistinct(Collection<String> files) {
        return List.copyOf(new TreeSet<>(files));
    }

    /** What one pass over the files found; merged across the passes of a waiting acquire. */
    private static final class Attempt {
        final TreeMap<String, FileLock> blocked = new TreeMap<>();
        /** Files another machine of the team holds, with their holders. */
        final TreeMap<String, Holder> elsewhere = new TreeMap<>();
        final TreeMap<String, FileLock> mine = new TreeMap<>();
        final List<String> taken = new ArrayList<>();
        final List<String> refused = new ArrayList<>();
        final TreeMap<String, Holder> holders = new TreeMap<>();
        /** Blocked files that are another path to a held file, with that file. */
        final TreeMap<String, String> aliases = new TreeMap<>();
        /** Blocked files held in another copy of their repository (the same branch, or every branch locked). */
        final TreeMap<String, HeldCopy> copyOf = new TreeMap<>();
        /** Files taken that other copies of the repository, on other branches, are changing too. */
        final TreeMap<String, List<HeldCopy>> overlaps = new TreeMap<>();
        private final TreeMap<String, LockResult> earlier = new TreeMap<>();

        boolean isBlocked() {
            return !blocked.isEmpty() || !elsewhere.isEmpty();
        }

        List<String> blockedFiles() {
            TreeSet<String> files = new TreeSet<>(blocked.keySet());
            files.addAll(elsewhere.keySet());
            return List.copyOf(files);
        }

        /** The blocked files as the wait-for graph knows them: a path held elsewhere (an alias, a copy) as that path. */
        List<String> heldFiles() {
            TreeSet<String> files = new TreeSet<>();
            blockedFiles().forEach(file -> files.add(blocked.containsKey(file) ? blocked.get(file).file() : file));
            return List.copyOf(files);
        }

        Attempt mergedWith(Attempt next) {
            next.earlier.putAll(outcomeMap());
            next.blockedFiles().forEach(next.earlier::remove);
            return next;
        }

        private TreeMap<String, LockResult> outcomeMap() {
            TreeMap<String, LockResult> results = new TreeMap<>(earlier);
            taken.forEach(file -> results.put(file, new LockResult(file, true, false, null, null, null,
                    overlaps.getOrDefault(file, List.of()))));
            mine.keySet().forEach(file -> results.put(file, new LockResult(file, true, true, null)));
            refused.forEach(file -> results.put(file, new LockResult(file, false, false, null)));
            holders.forEach((file, holder) -> results.put(file, new LockResult(file, false, false, holder, aliases.get(file),
                    copyOf.get(file), List.of())));
            return results;
        }

        AcquireOutcome outcome() {
            List<LockResult> results = List.copyOf(outcomeMap().values());
            return new AcquireOutcome(results, results.stream().allMatch(LockResult::acquired));
        }
    }
}
