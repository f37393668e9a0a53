package dev.baton.team;

import dev.baton.deadlock.Deadlocks;
import dev.baton.deadlock.WaitSharing;
import dev.baton.git.FileHistory;
import dev.baton.git.GitException;
import dev.baton.git.RepoIdentity;
import dev.baton.git.RepoRoot;
import dev.baton.home.BatonHome;
import dev.baton.lock.FileLock;
import dev.baton.lock.Holder;
import dev.baton.lock.LockChange;
import dev.baton.lock.LockRows;
import dev.baton.lock.SharedLockSpace;
import dev.baton.message.Message;
import dev.baton.message.MessageRelay;
import dev.baton.negotiation.Negotiation;
import dev.baton.negotiation.NegotiationRelay;
import dev.baton.negotiation.Negotiations;
import dev.baton.negotiation.RemoteRequest;
import dev.baton.negotiation.Urgency;
import dev.baton.session.Session;
import dev.baton.session.SessionAddress;
import dev.baton.session.SessionChange;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.state.Ledger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This sidecar's part of the team's lock space in PostgreSQL. A file the local table would give out is claimed in
 * the database first (one statement); a file this machine holds already costs nothing, unless this machine's lease
 * may have lapsed (then its claim is checked, and a file another machine took meanwhile is lost). Releases, lease
 * renewal, the other machines' events and reconnecting run on {@link TeamLink}'s thread.
 *
 * <p>When the database does not answer, files last known held by another machine stay denied, other files are
 * granted on this machine's word and claimed when the database answers again; a file taken on two machines
 * meanwhile becomes a conflict both sessions are told about. With {@code BATON_TEAM_STRICT=1} nothing new is granted.
 *
 * <p>Messages and the steps of negotiations with sessions of other machines travel as events of the same log.
 */
public final class TeamLockSpace implements SharedLockSpace, MessageRelay, NegotiationRelay, WaitSharing, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TeamLockSpace.class);
    private static final int CLAIM_ATTEMPTS = 5;

    private final TeamSettings settings;
    private final RepositoryKeys keys;
    private final StaleBase staleBase = new StaleBase(new FileHistory(Duration.ofSeconds(3)));
    private final Clock clock;
    /** Files this machine claimed, with the fencing number of the claim and the lease epoch it was last confirmed in. */
    private final Map<String, Claimed> claimed = new ConcurrentHashMap<>();
    /** Files other machines hold, as last heard: kept up by their events, used while the database does not answer. */
    private final Map<SharedPath, RemoteHold> elsewhere = new ConcurrentHashMap<>();
    /**
     * Files this machine had claimed and another machine holds now, found when the link (re)connected: this machine's
     * lease lapsed meanwhile (its sidecar was killed and started again, paused, or cut off). The local lock is lost at
     * its session's next call ({@link #lost}).
     */
    private final Map<String, RemoteHold> lapsed = new ConcurrentHashMap<>();
    /**
     * Files whose claim was refused "pull first": this clone lacks another machine's last change of them, so their
     * release (which follows at once) leaves that record as it is.
     */
    private final Set<String> refusedStale = ConcurrentHashMap.newKeySet();
    /** Files granted while the database did not answer, to claim once it does. */
    private final Set<String> unsynced = ConcurrentHashMap.newKeySet();
    private final LinkedBlockingQueue<String> released = new LinkedBlockingQueue<>();
    /** What other machines were last told of each session of this machine (its name and plan), and what changed since. */
    private final Map<String, ClaimingSession> described = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<ClaimingSession> redescribed = new LinkedBlockingQueue<>();
    /** Repositories whose root commit was checked against the team's, and whether it matched. */
    private final Map<String, Boolean> histories = new ConcurrentHashMap<>();
    private final Map<String, List<String>> notices = new ConcurrentHashMap<>();
    private final Map<String, Boolean> toldUnreachable = new ConcurrentHashMap<>();
    private final TeamLink link;
    private final StatementCounts counts = new StatementCounts();
    private final TeamWaitGraph waits;
    private volatile Ledger ledger;
    private volatile Negotiations negotiations;

    record Claimed(SharedPath path, long fence, long epoch) {
    }


    public TeamLockSpace(TeamSettings settings, Clock clock) {
        this(settings, clock, TeamPosition.NONE);
    }

    /** A space whose sidecar keeps its place in the event log in {@code home}, across its restarts. */
    public TeamLockSpace(TeamSettings settings, Clock clock, BatonHome home) {
        this(settings, clock, TeamPosition.in(home, settings.url()));
    }

    private TeamLockSpace(TeamSettings settings, Clock clock, TeamPosition position) {
        this.settings = settings;
        this.keys = new RepositoryKeys(settings.perBranch());
        this.clock = clock;
        this.waits = new TeamWaitGraph(settings.machine(), keys, counts, this::heldByTeamName);
        this.link = new TeamLink(settings, this, counts, position);
    }

    /**
     * Follows the local table's releases, answers the other machines' negotiation steps with {@code negotiations}, and
     * starts the link; the lock table must be built on this space first.
     */
    public void attach(Ledger ledger, Negotiations negotiations) {
        this.ledger = ledger;
        this.negotiations = negotiations;
        ledger.addListener(changes -> changes.forEach(change -> {
            if (change instanceof LockChange.LockRemoved removed) {
                released.add(removed.lock().file());
                link.wake();
            } else if (change instanceof SessionChange.SessionSaved saved && !saved.session().isSubagent()) {
                ClaimingSession now = describe(saved.session());
                ClaimingSession sent = described.get(now.id());
                if (sent != null && !(Objects.equals(sent.name(), now.name()) && Objects.equals(sent.plan(), now.plan()))) {
                    described.put(now.id(), now);
                    redescribed.add(now);
                }
            }
        }));
        link.start();
    }

    public TeamSettings settings() {
        return settings;
    }

    // --- the ledger's side: runs inside a write, one at a time -------------------------------------------------

    @Override
    public Map<String, Holder> claim(Session session, List<String> files) {
        Map<String, Holder> refused = new LinkedHashMap<>();
        for (String file : files) {
            Optional<SharedPath> key;
            try {
                key = keys.named(file);
            } catch (GitException e) {
                refused.put(file, unknownHolder("git could not name this file's repository in time (" + e.getMessage()
                        + "), so whether another machine holds it is not known; try again"));
                continue;
            }
            if (key.isEmpty() || !sameHistory(session, file, key.get())) {
                continue; // not a file of a shared repository: this machine's alone
            }
            claimOne(session, file, key.get()).ifPresent(holder -> refused.put(file, holder));
        }
        return refused;
    }

    /**
     * The cross-check of a repository's name: the first machine to name it records its root commit, and a clone whose
     * history starts elsewhere is another repository behind the same name (two projects with one identity file, say).
     * Its files are then not shared, and the session is told once. A shallow clone cannot tell its root and is trusted.
     */
    private boolean sameHistory(Session session, String file, SharedPath key) {
        Boolean known = histories.get(key.repository());
        if (known != null) {
            return known;
        }
        Connection connection = link.claimsConnection();
        Optional<Path> root = RepoRoot.of(Path.of(file));
        String rootCommit = root.flatMap(keys::identityOf).map(RepoIdentity::rootCommit).orElse(null);
        if (connection == null || root.isEmpty() || rootCommit == null
                || java.nio.file.Files.exists(root.get().resolve(".git").resolve("shallow"))) {
            return true;
        }
        try {
            String[] recorded = TeamDatabase.rootCommitOf(connection, key.repository(), rootCommit, settings.machine());
            boolean same = recorded == null || recorded[0].equals(rootCommit);
            histories.put(key.repository(), same);
            if (!same) {
                LOG.warn("{} is named {} here and on machine {}, but their histories start at {} and {}: not shared",
                        root.get(), key.repository(), recorded[1], rootCommit, recorded[0]);
                tell(session.id(), "Baton: " + root.get() + " is known to the team as " + key.repository() + ", but its"
                        + " history starts at commit " + rootCommit.substring(0, 12) + " while machine " + recorded[1]
                        + "'s starts at " + recorded[0].substring(0, 12) + ": they are two repositories behind one name,"
                        + " so its files are locked on this machine only. Give one of them its own name in a committed "
                        + RepoIdentity.IDENTITY_FILE + " file.");
            }
            return same;
        } catch (SQLException e) {
            link.lost(e);
            return true;
        }
    }

    private Optional<Holder> claimOne(Session session, String file, SharedPath key) {
        Connection connection = link.claimsConnection();
        if (connection != null) {
            try {
                TeamDatabase.Claim answer = claimInDatabase(connection, session, key);
                if (answer instanceof TeamDatabase.Granted granted) {
                    return taken(connection, session, file, key, granted);
                }
                if (answer instanceof TeamDatabase.Held held) {
                    elsewhere.put(key, held.hold());
                    return Optional.of(holder(held.hold(), null));
                }
                return Optional.of(unknownHolder("another machine claimed it at the same moment; try again"));
            } catch (SQLException e) {
                link.lost(e);
            }
        }
        return claimWithoutDatabase(session, file, key);
    }

    /**
     * A claim granted: the file is this machine's under its new fencing number, unless this clone lacks the previous
     * holder's last change of it ("pull first"); the session hears what the previous holder left and who changes the
     * file on other branches.
     */
    private Optional<Holder> taken(Connection connection, Session session, String file, SharedPath key,
                                   TeamDatabase.Granted granted) {
        claimed.put(file, new Claimed(key, granted.fence(), link.epoch()));
        unsynced.remove(file);
        refusedStale.remove(file); // an earlier refusal no longer holds: this claim decides
        if (granted.previous() == null) {
            tellOtherBranches(connection, session, key);
            return Optional.empty();
        }
        Optional<Holder> stale = refusedAsStale(file, key, granted.previous());
        if (stale.isEmpty() && Boolean.TRUE.equals(granted.previous().uncommitted())) {
            tellLeftOver(session, file, granted.previous());
        }
        if (stale.isEmpty()) {
            tellOtherBranches(connection, session, key);
        }
        return stale;
    }

    /**
     * One claim, asked again while it races a claim that committed after it began (which it cannot see): the answer is
     * then granted or held, unless the race went on for every attempt.
     */
    private TeamDatabase.Claim claimInDatabase(Connection connection, Session session, SharedPath key) throws SQLException {
        TeamDatabase.Claim answer = new TeamDatabase.Raced();
        for (int attempt = 0; attempt < CLAIM_ATTEMPTS && answer instanceof TeamDatabase.Raced; attempt++) {
            counts.claims.incrementAndGet();
            ClaimingSession claiming = describe(session);
            described.put(claiming.id(), claiming);
            answer = TeamDatabase.claim(connection, settings.machine(), claiming, key);
        }
        return answer;
    }

    /**
     * The file changed hands across machines and this clone lacks the previous holder's last commit of it: refused with
     * "pull first" ({@link StaleBase}); the claim just made goes back.
     */
    private Optional<Holder> refusedAsStale(String file, SharedPath key, LastChange previous) {
        Optional<String> problem = staleBase.problem(file, key, previous);
        if (problem.isEmpty()) {
            return Optional.empty();
        }
        refusedStale.add(file);
        released.add(file);
        link.wake();
        return Optional.of(new Holder(previous.session(), null, null, Holder.RELEASED, null, null, null, null, null, null,
                null, previous.machine(), problem.get()));
    }

    /**
     * A team keyed by branch: the file just claimed is changed on other branches on other machines too, which will meet
     * at a merge. The session is told who changes it where, once, at this claim (one statement, only in that scope).
     */
    private void tellOtherBranches(Connection connection, Session session, SharedPath key) {
        if (!settings.perBranch()) {
            return;
        }
        List<TeamDatabase.OtherBranch> others;
        try {
            others = TeamDatabase.otherBranches(connection, key.repository(), key.path(), settings.machine());
        } catch (SQLException e) {
            // The claim stands; only the word about other branches is lost, and the link finds out on its own.
            LOG.warn("could not look for other branches changing {}: {}", key.path(), e.toString());
            return;
        }
        for (TeamDatabase.OtherBranch other : others) {
            tell(session.id(), "Baton: " + key.path() + " is also being changed on machine " + other.machine()
                    + " by session " + other.session() + " on branch " + other.branch() + ". Your edit goes ahead, since"
                    + " the branches differ, but the two changes will meet at the merge. Agree who changes what with"
                    + " `baton msg send " + other.session() + " \"…\"` (it reaches that machine), or leave this file to it.");
        }
    }

    /**
     * The file was let go on another machine with changes its clone still has and no commit does: as on one machine
     * (lock/LeftOverWork), the session taking it is told, with the machine named, since its copy lacks them.
     */
    private void tellLeftOver(Session session, String file, LastChange previous) {
        tell(session.id(), "Baton: " + file + " was let go on machine " + previous.machine() + " by session "
                + previous.session() + " with uncommitted changes still in that clone: your copy does not have them."
                + " Ask that session (`baton msg send " + previous.session() + " \"…\"`) or whoever works there to commit"
                + " and push them, or agree they are dropped, before you build on the file.");
    }

    @Override
    public boolean mayRelease(String file) {
        return keys.of(file).map(key -> staleBase.reachedARemote(file, key)).orElse(true);
    }

    private Optional<Holder> claimWithoutDatabase(Session session, String file, SharedPath key) {
        RemoteHold known = elsewhere.get(key);
        String since = " (since " + link.unreachableSince() + ")";
        if (settings.strict()) {
            throw new BatonException(ErrorCode.STORAGE, "the team database " + settings.url().shown() + " does not answer"
                    + since + ", and BATON_TEAM_STRICT=1 lets no file be taken until it does; wait, or ask whoever runs"
                    + " the database");
        }
        if (known != null && known.leaseValid()) {
            return Optional.of(holder(known, "the team database does not answer" + since + ", so this is the last known"
                    + " holder; the file stays theirs until it answers"));
        }
        unsynced.add(file);
        if (toldUnreachable.putIfAbsent(session.id(), true) == null) {
            tell(session.id(), "Baton: the team database does not answer" + since + ". Files other machines held stay"
                    + " denied; " + key.path() + " and other new files are held on this machine's word until it answers."
                    + " A file taken on two machines meanwhile will be reported to both sessions.");
        }
        return Optional.empty();
    }

    @Override
    public Map<String, Holder> lost(Session session, Collection<String> files) {
        Map<String, Holder> lost = new LinkedHashMap<>();
        List<String> unchecked = new ArrayList<>();
        for (String file : files) {
            RemoteHold taken = lapsed.remove(file);
            if (taken == null) {
                unchecked.add(file);
            } else {
                lapsedHolder(session, file, taken).ifPresent(holder -> lost.put(file, holder));
            }
        }
        Connection connection = link.claimsConnection();
        if (connection == null) {
            return lost; // cannot know: keep what is held (it is checked again on reconnect)
        }
        boolean leaseInDoubt = link.leaseInDoubt();
        for (String file : unchecked) {
            Claimed mine = claimed.get(file);
            if (mine == null || (!leaseInDoubt && mine.epoch() == link.epoch())) {
                continue;
            }
            try {
                TeamDatabase.Claim answer = claimInDatabase(connection, session, mine.path());
                if (answer instanceof TeamDatabase.Granted granted) {
                    claimed.put(file, new Claimed(mine.path(), granted.fence(), link.epoch()));
                } else if (answer instanceof TeamDatabase.Held held) {
                    claimed.remove(file);
                    elsewhere.put(mine.path(), held.hold());
                    lost.put(file, holder(held.hold(), "this machine's lease on it lapsed (its sidecar was paused or cut"
                            + " off for longer than BATON_TEAM_TTL, " + settings.ttl().toSeconds() + " s), and the other"
                            + " machine took it (fencing number " + held.hold().fence() + " replaces " + mine.fence()
                            + "); your changes to it were not made under the lock, compare them with theirs"));
                }
            } catch (SQLException e) {
                link.lost(e);
                break;
            }
        }
        return lost;
    }

    /**
     * Who holds a file that another machine took while this machine's claim had lapsed, as the (re)connect found it.
     * That machine may have released it since, so the denial is confirmed first, by claiming the file (one statement,
     * only here): free now, it is the session's again as any claim makes it; held, the holder named is the database's.
     * A database that does not answer leaves the holder found then.
     */
    private Optional<Holder> lapsedHolder(Session session, String file, RemoteHold found) {
        RemoteHold holding = found;
        Connection connection = link.claimsConnection();
        if (connection != null) {
            try {
                TeamDatabase.Claim answer = claimInDatabase(connection, session, found.file());
                if (answer instanceof TeamDatabase.Granted granted) {
                    return taken(connection, session, file, found.file(), granted);
                }
                if (answer instanceof TeamDatabase.Held held) {
                    holding = held.hold();
                    elsewhere.put(found.file(), holding);
                }
            } catch (SQLException e) {
                link.lost(e);
            }
        }
        return Optional.of(holder(holding, "this machine's claim on it ended while its sidecar was stopped or cut off"
                + " for longer than BATON_TEAM_TTL (" + settings.ttl().toSeconds() + " s), and the other machine"
                + " took it (fencing number " + holding.fence() + "); your changes to it since were not made under"
                + " the lock, compare them with theirs"));
    }

    @Override
    public void unclaim(Collection<String> files) {
        released.addAll(files);
        link.wake();
    }

    @Override
    public List<String> takeNotices(String sessionId) {
        List<String> pending = notices.remove(sessionId);
        return pending == null ? List.of() : pending;
    }

    void tell(String sessionId, String text) {
        notices.computeIfAbsent(sessionId, id -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(text);
    }

    // --- the link's side: its own thread ---------------------------------------------------------------------

    /**
     * What a release records as the file's last change: this clone's last commit of it, unless its claim was refused
     * "pull first": then the other machine's record stays as it was, so every later session of a clone without that
     * commit is stopped too.
     */
    private LastChange lastChangeOnRelease(String file, SharedPath key) {
        return refusedStale.remove(file) ? null : staleBase.lastChange(file, key, settings.machine());
    }

    /** Gives back the claims of files the local table no longer holds; a file held again meanwhile keeps its new claim. */
    void flushReleases(Connection connection) throws SQLException {
        for (ClaimingSession session = redescribed.poll(); session != null; session = redescribed.poll()) {
            TeamDatabase.describe(connection, settings.machine(), session);
        }
        List<String> files = new ArrayList<>();
        released.drainTo(files);
        for (String file : files) {
            Claimed gone = ledger.read(world -> world.find(LockRows.FILES, file).isPresent() ? null : claimed.remove(file));
            unsynced.remove(file);
            if (gone != null) {
                try {
                    counts.releases.incrementAndGet();
                    TeamDatabase.release(connection, settings.machine(), gone.path(), gone.fence(),
                            lastChangeOnRelease(file, gone.path()));
                } catch (SQLException e) {
                    claimed.putIfAbsent(file, gone);
                    released.add(file);
                    throw e;
                }
            }
        }
    }

    /**
     * After (re)connecting: gives back what this machine claimed but no longer holds (a sidecar that crashed between
     * the two), claims what it holds unclaimed (granted while the database did not answer, or before a restart), and
     * turns a file another machine took meanwhile into a conflict both sessions hear about.
     */
    void reconcile(Connection connection, Runnable connected) throws SQLException {
        // Under the ledger: no claim runs until the claims connection is in place, so none can race this pass.
        reconcileUnderLedger(connection, connected, OFFLINE);
        toldUnreachable.keySet().forEach(id -> tell(id, "Baton: the team database answers again; every file is checked"
                + " across machines as before."));
        toldUnreachable.clear();
    }

    /** Shares this machine's waits with the team from now on, and hands {@code deadlocks} the team's edges. */
    @Override
    public void shareWaitsOf(Deadlocks deadlocks) {
        waits.attach(ledger, deadlocks);
    }

    /** The team's wait-for graph, as this machine shares and reads it. */
    TeamWaitGraph waits() {
        return waits;
    }

    /** The files this machine has claimed, by their team names. */
    private Map<SharedPath, String> heldByTeamName() {
        Map<SharedPath, String> held = new java.util.HashMap<>();
        claimed.forEach((file, claim) -> held.put(claim.path(), file));
        return held;
    }

    /** The claims this machine holds in the database, as it knows them. */
    int claimsHeld() {
        return claimed.size();
    }

    /** Checks every claim of this machine again: some went from the database while its lease was valid. */
    void recheck(Connection connection) throws SQLException {
        reconcileUnderLedger(connection, () -> { }, REMOVED);
    }

    /** How a session came to hold a file another machine holds too, as both sides read it. */
    private static final String OFFLINE = "took it while the team database did not answer";
    private static final String REMOVED = "held it, and its claim in the team database was removed while its machine's"
            + " lease was valid (someone wrote to the database directly)";

    private void reconcileUnderLedger(Connection connection, Runnable connected, String cause) throws SQLException {
        SQLException failure = ledger.read(world -> {
            try {
                Map<String, Session> local = new LinkedHashMap<>();
                world.rows(LockRows.FILES).forEach(lock -> world.find(SessionRows.SESSIONS, lock.sessionId())
                        .ifPresent(session -> local.put(lock.file(), session)));
                reconcile(connection, local, cause);
                connected.run();
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        if (failure != null) {
            throw failure;
        }
    }

    private void reconcile(Connection connection, Map<String, Session> local, String cause) throws SQLException {
        Map<SharedPath, String> localKeys = new LinkedHashMap<>();
        local.keySet().forEach(file -> keys.of(file).ifPresent(key -> localKeys.put(key, file)));
        for (RemoteHold mine : TeamDatabase.heldBy(connection, settings.machine())) {
            String file = localKeys.get(mine.file());
            if (file == null) {
                counts.releases.incrementAndGet();
                TeamDatabase.release(connection, settings.machine(), mine.file(), mine.fence(), null);
            } else if (!unsynced.contains(file)) {
                claimed.put(file, new Claimed(mine.file(), mine.fence(), link.epoch()));
            }
        }
        for (Map.Entry<SharedPath, String> entry : localKeys.entrySet()) {
            String file = entry.getValue();
            Claimed known = claimed.get(file);
            if (known != null && known.epoch() == link.epoch() && !unsynced.contains(file)) {
                continue;
            }
            Session session = local.get(file);
            TeamDatabase.Claim answer = claimInDatabase(connection, session, entry.getKey());
            if (answer instanceof TeamDatabase.Granted granted) {
                claimed.put(file, new Claimed(entry.getKey(), granted.fence(), link.epoch()));
            } else if (answer instanceof TeamDatabase.Held held && !unsynced.contains(file) && cause.equals(OFFLINE)) {
                // Claimed before (by this sidecar, or by the one before it on this home) and taken since: not a
                // double take but a lapsed lease, as after a pause. The other machine keeps it.
                elsewhere.put(entry.getKey(), held.hold());
                claimed.remove(file);
                lapsed.put(file, held.hold());
                tell(session.id(), "Baton: " + file + " is no longer yours: this machine's sidecar was stopped or cut off"
                        + " for longer than BATON_TEAM_TTL, and " + (held.hold().agent() == null ? "" : held.hold().agent()
                        + " ") + "session " + held.hold().session() + " on machine " + held.hold().machine() + " took it."
                        + " Your next edit of it is denied while they hold it; compare your changes to it with theirs"
                        + " (`baton msg send " + held.hold().session() + " \"…\"`).");
                LOG.warn("{} of session {} was taken by {} on machine {} while this machine's lease had lapsed", file,
                        session.id(), held.hold().session(), held.hold().machine());
            } else if (answer instanceof TeamDatabase.Held held) {
                RemoteHold other = held.hold();
                elsewhere.put(entry.getKey(), other);
                TeamDatabase.conflict(connection, settings.machine(), session.id(), entry.getKey(), other, cause);
                tell(session.id(), "Baton: conflict on " + file + ": you " + cause.replace("its machine's", "your machine's")
                        + ", and " + (other.agent() == null ? "" : other.agent() + " ") + "session " + other.session()
                        + " on machine " + other.machine() + " holds it too. Neither lock was dropped: agree with them"
                        + " who keeps it (`baton msg send " + other.session() + " \"…\"`), and compare both versions before either"
                        + " commits.");
                LOG.warn("conflict on {}: held here by {} and on {} by {}", file, session.id(), other.machine(), other.session());
            } else {
                // Still racing another machine's claim: this pass ends here and the link reconciles again.
                throw new SQLException("the claim of " + entry.getKey() + " kept racing another machine's");
            }
            unsynced.remove(file);
        }
    }

    /** Starts the picture of other machines' files from the database, before following their events. */
    void loadElsewhere(Connection connection) throws SQLException {
        elsewhere.clear();
        TeamDatabase.heldByOthers(connection, settings.machine()).forEach(hold -> elsewhere.put(hold.file(), hold));
    }

    /** What a sidecar that starts again still delivers of the events it missed: what was addressed to its sessions. */
    void followAddressed(TeamEvent event) {
        if (event.kind().equals("message") || event.kind().equals("negotiation") || event.kind().equals("conflict")) {
            follow(event);
        }
    }

    void follow(TeamEvent event) {
        if (event.machine().equals(settings.machine())) {
            return;
        }
        switch (event.kind()) {
            case "claim" -> elsewhere.put(event.file(), new RemoteHold(event.file(), event.machine(), null,
                    event.session(), null, null, null, null, event.at(), event.fence() == null ? 0 : event.fence(), true));
            case "release" -> {
                elsewhere.computeIfPresent(event.file(), (key, hold) -> hold.machine().equals(event.machine()) ? null : hold);
                resolveRequestsFor(event.machine(), event.file());
            }
            case "negotiation" -> addressedHere(event).ifPresent(session -> {
                try {
                    negotiationStep(event, session, NegotiationStep.parse(event.body()));
                } catch (RuntimeException e) {
                    // A step that cannot be applied must not stop the log: the next events still follow.
                    LOG.warn("negotiation step {} from machine {} not applied: {}", event.seq(), event.machine(),
                            e.toString());
                }
            });
            case "conflict" -> addressedHere(event).ifPresent(session -> tell(session, "Baton: conflict on "
                    + event.file().path() + " (" + event.file().repository() + "): session " + event.session()
                    + " on machine " + event.machine() + " " + (event.body() == null ? OFFLINE : event.body())
                    + ", and you hold it. Neither lock was dropped: agree with them who keeps it, and compare both"
                    + " versions before either commits."));
            case "message" -> {
                boolean everyone = Message.EVERYONE.equals(event.detail());
                List<String> readers = everyone && ledger != null
                        ? ledger.read(world -> world.rows(SessionRows.SESSIONS).stream().map(Session::id).toList())
                        : addressedHere(event).stream().toList();
                String agent = event.agent() == null ? "" : event.agent() + " ";
                readers.forEach(session -> tell(session, "Message from " + agent + "session " + event.session()
                        + " on machine " + event.machine() + (everyone ? " to everyone" : "") + ": " + event.body()
                        + " (answer with `baton msg send " + event.session() + " \"…\"`)"));
            }
            default -> LOG.debug("team event of an unknown kind {}", event.kind());
        }
    }

    /** The session of this machine an event is addressed to ({@code detail} is {@code MACHINE/SESSION}), if it is. */
    private Optional<String> addressedHere(TeamEvent event) {
        return SessionAddress.sessionOn(settings.machine(), event.detail());
    }

    /**
     * A step of a negotiation that a session of another machine took: a request for a file a session here holds (its
     * path mapped back through that session's locks; answered "released" at once when it holds it no longer), or the
     * holder's answer, or the requester's withdrawal.
     */
    private void negotiationStep(TeamEvent event, String session, NegotiationStep step) {
        Negotiations here = negotiations;
        if (here == null) {
            return;
        }
        switch (step.step()) {
            case NegotiationStep.REQUEST -> {
                Optional<String> file = heldFileOf(session, event.file());
                boolean opened = file.isPresent() && here.requestedFrom(new RemoteRequest(step.id(), file.get(),
                        event.session(), event.machine(), step.agent(), session, step.reason(), Urgency.parse(step.urgency()),
                        step.createdAt() == null ? event.at() : step.createdAt(),
                        step.timeoutAt() == null ? event.at().plus(Urgency.parse(step.urgency()).timeout()) : step.timeoutAt()));
                if (!opened) {
                    // Under the ledger, as every use of the claims connection.
                    ledger.read(world -> {
                        sendQuietly(session, event.machine(), event.session(), event.file(),
                                NegotiationStep.released(step.id()));
                        return null;
                    });
                }
            }
            case NegotiationStep.DEFER -> here.deferredElsewhere(step.id(), event.machine(), step.agent(),
                    step.answeredAt(), step.etaMinutes(), step.answerReason());
            case NegotiationStep.RELEASED -> here.releasedElsewhere(step.id(), event.machine());
            case NegotiationStep.WITHDRAWN -> here.withdrawnElsewhere(step.id(), event.machine(),
                    step.resolution() == null ? "withdrawn" : step.resolution());
            default -> LOG.debug("negotiation step of an unknown kind {}", step.step());
        }
    }

    /** The file of this machine that {@code path} names, when the session (or a subagent of it) holds it here. */
    private Optional<String> heldFileOf(String session, SharedPath path) {
        List<String> held = ledger.read(world -> world.rows(LockRows.FILES).stream()
                .filter(lock -> lock.sessionId().equals(session) || world.find(SessionRows.SESSIONS, lock.sessionId())
                        .map(holder -> session.equals(holder.parentId())).orElse(false))
                .map(FileLock::file)
                .toList());
        return held.stream().filter(file -> keys.of(file).filter(path::equals).isPresent()).findFirst();
    }

    /** Another machine gave the file back: the requests of this machine's sessions for it are answered. */
    private void resolveRequestsFor(String machine, SharedPath path) {
        Negotiations here = negotiations;
        if (here == null) {
            return;
        }
        try {
            for (Negotiation open : here.openWithHolderOn(machine)) {
                if (keys.of(open.file()).filter(path::equals).isPresent()) {
                    here.releasedElsewhere(open.id(), machine);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("requests for {} not resolved after machine {} released it: {}", path, machine, e.toString());
        }
    }

    @Override
    public void request(Negotiation negotiation, Session requester) {
        SharedPath path = keys.of(negotiation.file()).orElseThrow(() -> new BatonException(ErrorCode.CONFLICT,
                negotiation.file() + " is not a file of a repository the team shares, so a request for it cannot reach"
                        + " machine " + negotiation.holderMachine()));
        send(requester.id(), negotiation.holderMachine(), negotiation.holderId(), path,
                NegotiationStep.request(negotiation, agentOf(requester)));
    }

    @Override
    public void answer(Negotiation negotiation, Session holder) {
        send(holder.id(), negotiation.requesterMachine(), negotiation.requesterId(), keys.of(negotiation.file()).orElse(null),
                NegotiationStep.answer(negotiation, agentOf(holder)));
    }

    @Override
    public void withdraw(Negotiation negotiation) {
        sendQuietly(negotiation.requesterId(), negotiation.holderMachine(), negotiation.holderId(),
                keys.of(negotiation.file()).orElse(null), NegotiationStep.withdrawal(negotiation));
    }

    private void sendQuietly(String sender, String machine, String session, SharedPath file, NegotiationStep step) {
        try {
            send(sender, machine, session, file, step);
        } catch (BatonException e) {
            LOG.warn("negotiation {} ({}) not sent to machine {}: {}", step.id(), step.step(), machine, e.getMessage());
        }
    }

    private void send(String sender, String machine, String session, SharedPath file, NegotiationStep step) {
        writeEvent("negotiation " + step.id() + " to machine " + machine, connection ->
                TeamDatabase.negotiation(connection, settings.machine(), sender, SessionAddress.of(machine, session), file, step.json()));
    }

    /** An event this machine writes for another on the claims connection, as {@link #writeEvent} runs it. */
    @FunctionalInterface
    private interface EventWrite {
        void to(Connection connection) throws SQLException;
    }

    /**
     * Writes an event for other machines (a message, a negotiation step); {@code what} names it in the sentence a
     * caller reads when the database does not answer.
     */
    private void writeEvent(String what, EventWrite write) {
        Connection connection = link.claimsConnection();
        if (connection == null) {
            throw new BatonException(ErrorCode.STORAGE, "the team database does not answer, so " + what
                    + " cannot be sent now; try again once `baton team status` says connected");
        }
        try {
            write.to(connection);
        } catch (SQLException e) {
            link.lost(e);
            throw new BatonException(ErrorCode.STORAGE, "the team database stopped answering while " + what
                    + " was sent; it may not have arrived: " + e.getMessage());
        }
    }

    @Override
    public Optional<Holder> knownHolder(String file) {
        return keys.of(file).map(elsewhere::get).filter(RemoteHold::leaseValid).map(hold -> holder(hold, null));
    }

    @Override
    public Optional<String> remoteSession(String to) {
        Connection connection = link.claimsConnection();
        if (connection == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(TeamDatabase.remoteSession(connection, settings.machine(), to));
        } catch (SQLException e) {
            link.lost(e);
            return Optional.empty();
        }
    }

    @Override
    public boolean broadcast(Session sender, String text) {
        try {
            relay(sender, Message.EVERYONE, text);
            return true;
        } catch (BatonException unreachable) {
            return false;
        }
    }

    @Override
    public void relay(Session sender, String recipient, String text) {
        writeEvent("the message to " + recipient + " on another machine", connection ->
                TeamDatabase.message(connection, settings.machine(), sender.id(), agentOf(sender), recipient, text));
    }

    /** The session's agent as the other machines' sentences name it; null when it has none. */
    private static String agentOf(Session session) {
        return session.agent() == null ? null : session.agent().wireName();
    }

    /** What {@code baton team status} shows of this machine's view. */
    public TeamView view() {
        return link.view(claimed.size(), unsynced.size(), elsewhere.size(), counts.snapshot());
    }

    private static ClaimingSession describe(Session session) {
        return new ClaimingSession(session.familyId(), agentOf(session),
                session.name(), session.plan() == null ? null : session.plan().summary(),
                session.process() == null ? null : session.process().pid(), session.cwd(), session.startedAt());
    }

    /** This sidecar's clock. */
    Instant now() {
        return Instant.now(clock);
    }

    /** Another machine's hold as this machine tells it: its start, told by the database's clock, on this one's. */
    private Holder holder(RemoteHold hold, String note) {
        Instant since = hold.since() == null ? null : hold.since().minus(link.databaseAhead());
        return new Holder(hold.session(), hold.agent(), hold.pid(), hold.leaseValid() ? "alive" : "lease expired",
                hold.host(), null, since, null, null, hold.name(), hold.plan(), hold.machine(), note);
    }

    private Holder unknownHolder(String note) {
        return new Holder("?", null, null, "unknown", null, null, Instant.now(clock), null, null, null, null,
                "(another)", note);
    }

    @Override
    public void close() {
        link.close();
    }
}
