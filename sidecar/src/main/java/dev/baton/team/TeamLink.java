package dev.baton.team;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar's connections to the team database and the thread that keeps them: it renews this machine's lease
 * (one statement per interval, whatever is held), gives back released files, follows the other machines' events
 * (woken by LISTEN/NOTIFY, read by sequence from the durable log, so a reconnect misses nothing), and reconnects
 * and reconciles after the database went away. Claims run on their own connection, from the ledger's writes.
 */
final class TeamLink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TeamLink.class);
    private static final Duration CONNECT_BOUND = Duration.ofSeconds(2);
    private static final Duration READ_BOUND = Duration.ofSeconds(3);
    /** How long one wait for the other machines' notifications lasts: a release is given back within it. */
    private static final int LISTEN_SLICE_MILLIS = 200;
    private static final Duration RETRY_EVERY = Duration.ofSeconds(1);
    private static final int EVENT_PAGE = 500;
    private static final Duration EVENTS_AT_LEAST_EVERY = Duration.ofSeconds(5);
    /**
     * How long events, and sessions and machines that hold nothing, stay in the database: a sidecar that was away
     * longer starts its picture of the other machines' files again. Pruned at each join and then every hour.
     */
    static final Duration KEPT = Duration.ofDays(1);
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    private final TeamSettings settings;
    private final TeamLockSpace space;
    private final StatementCounts counts;
    private final Object wakeUp = new Object();
    private volatile Connection claims;
    private Connection work;
    private volatile long epoch;
    private volatile long confirmedNanos = System.nanoTime();
    private volatile Instant confirmedWall = Instant.now();
    private volatile Instant unreachableSince = Instant.now();
    private volatile String lastError = "not connected yet";
    private volatile boolean running = true;
    private long renewDueNanos;
    private long pruneDueNanos;
    private long lastEvent;
    /** Whether the log has been followed since this sidecar started: a reconnect goes on from {@link #lastEvent}. */
    private boolean followed;
    private long eventsReadNanos;
    private Thread thread;
    private final Object statusLock = new Object();
    /** The connection {@link #view} asks on; guarded by {@link #statusLock}. */
    private Connection status;

    private final TeamPosition position;
    /** How far the database's clock is ahead of this sidecar's, as last measured (negative when behind). */
    private volatile Duration databaseAhead = Duration.ZERO;

    TeamLink(TeamSettings settings, TeamLockSpace space, StatementCounts counts, TeamPosition position) {
        this.settings = settings;
        this.space = space;
        this.counts = counts;
        this.position = position;
    }

    /** Connects once before returning (a sidecar that can reach its team starts in it), then keeps the link. */
    void start() {
        try {
            connect();
        } catch (SQLException | RuntimeException e) {
            failed(e);
        }
        thread = new Thread(this::run, "baton-team");
        thread.setDaemon(true);
        thread.start();
    }

    /** The claims connection, or null while the database does not answer. */
    Connection claimsConnection() {
        return claims;
    }

    /** Bumped whenever this machine's lease is found to have lapsed: every claim made before must be checked again. */
    long epoch() {
        return epoch;
    }

    /** True when the lease may have run out unseen: not confirmed for half the TTL, by the monotonic or the wall clock. */
    boolean leaseInDoubt() {
        Duration half = settings.ttl().dividedBy(2);
        return System.nanoTime() - confirmedNanos > half.toNanos()
                || Duration.between(confirmedWall, Instant.now()).compareTo(half) > 0;
    }

    /** How far the database's clock is ahead of this sidecar's: a time the database told, on this sidecar's clock. */
    Duration databaseAhead() {
        return databaseAhead;
    }

    /** The database said {@code databaseNow} between {@code before} and {@code after} of this sidecar's clock. */
    private void clocksCompared(Instant databaseNow, Instant before, Instant after) {
        if (databaseNow != null) {
            Instant midway = before.plus(Duration.between(before, after).dividedBy(2));
            databaseAhead = Duration.between(midway, databaseNow);
        }
    }

    Instant unreachableSince() {
        return unreachableSince;
    }

    /** A statement failed: the database counts as unreachable until the thread has reconnected and reconciled. */
    void lost(SQLException e) {
        failed(e);
        wake();
    }

    void wake() {
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
    }

    private synchronized void failed(Exception e) {
        if (claims != null || work != null) {
            unreachableSince = Instant.now();
            LOG.warn("the team database {} does not answer: {}", settings.url().shown(), e.getMessage());
        }
        lastError = e.getMessage();
        closeQuietly(claims);
        closeQuietly(work);
        claims = null;
        work = null;
    }

    private void connect() throws SQLException {
        Connection opened = TeamDatabase.open(settings.url(), CONNECT_BOUND, READ_BOUND);
        try {
            TeamSchema.create(opened);
            Instant before = space.now();
            Instant databaseNow = TeamDatabase.join(opened, settings.machine(), settings.host(), settings.ttl());
            clocksCompared(databaseNow, before, space.now());
            confirmed();
            renewDueNanos = System.nanoTime() + settings.renewEvery().toNanos();
            try (Statement listen = opened.createStatement()) {
                listen.execute("LISTEN " + TeamDatabase.CHANNEL);
            }
            if (!followed || TeamDatabase.eventsLostAfter(opened, lastEvent)) {
                // First join: the other machines' files as they are now; from then on, every event in order. A
                // reconnect goes on from the last event read, so nothing written meanwhile (a conflict) is missed;
                // unless this sidecar was away longer than events are kept: then it starts again, as at first.
                if (followed) {
                    LOG.warn("this sidecar was away from the team longer than its events are kept ({}); it reads the"
                            + " other machines' files again, and messages or requests sent meanwhile are lost", KEPT);
                }
                long newest = TeamDatabase.newestEvent(opened);
                OptionalLong stopped = followed ? OptionalLong.empty() : position.read();
                space.loadElsewhere(opened);
                if (stopped.isPresent() && stopped.getAsLong() < newest
                        && !TeamDatabase.eventsLostAfter(opened, stopped.getAsLong())) {
                    // Started again: what was sent to this machine's sessions meanwhile still reaches them.
                    readAfter(opened, stopped.getAsLong(), newest, space::followAddressed);
                }
                lastEvent = newest;
                followed = true;
                keepPosition();
            }
            pruneDueNanos = System.nanoTime();
            Connection forClaims = TeamDatabase.open(settings.url(), CONNECT_BOUND, READ_BOUND);
            synchronized (this) {
                work = opened;
            }
            // Reconciled under the ledger, which then finds the claims connection in place: no claim runs between.
            space.reconcile(opened, () -> claims = forClaims);
            space.waits().rejoined();
            LOG.info("joined the team at {} as machine {}", settings.url().shown(), settings.machine());
        } catch (SQLException | RuntimeException e) {
            closeQuietly(opened);
            throw e;
        }
    }

    private void confirmed() {
        confirmedNanos = System.nanoTime();
        confirmedWall = Instant.now();
    }

    private void run() {
        while (running) {
            try {
                Connection connection;
                synchronized (this) {
                    connection = work;
                }
                if (connection == null) {
                    if (!waitFor(RETRY_EVERY)) {
                        return;
                    }
                    connect();
                    continue;
                }
                PGNotification[] heard = connection.unwrap(PGConnection.class).getNotifications(LISTEN_SLICE_MILLIS);
                space.flushReleases(connection);
                if (System.nanoTime() - renewDueNanos >= 0) {
                    renew(connection);
                }
                if (System.nanoTime() - pruneDueNanos >= 0) {
                    counts.prunes.incrementAndGet();
                    long pruned = TeamDatabase.prune(connection, KEPT);
                    if (pruned > 0) {
                        LOG.info("pruned {} rows older than {} from the team database", pruned, KEPT);
                    }
                    pruneDueNanos = System.nanoTime() + PRUNE_EVERY.toNanos();
                }
                // The log is read when another machine announced a change, and now and then in case a notification
                // was lost (one sent while this connection was being made): an idle team sends almost nothing.
                boolean announced = heard != null && heard.length > 0;
                boolean due = System.nanoTime() - eventsReadNanos > EVENTS_AT_LEAST_EVERY.toNanos();
                if (announced || due) {
                    readEvents(connection);
                }
                // The team's wait-for graph is read when a machine's waits changed (this one's included), when a claim or
                // a release may have closed or broken a cycle while anyone waits, and now and then.
                boolean waitsChanged = announced && Arrays.stream(heard)
                        .anyMatch(n -> TeamDatabase.WAITS_CHANGED.equals(n.getParameter()));
                TeamWaitGraph waits = space.waits();
                boolean shared = waits.share(connection);
                if (shared || waitsChanged || due || (announced && waits.anyInTeam())) {
                    waits.read(connection);
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    failed(e);
                }
            }
        }
    }

    private void readEvents(Connection connection) throws SQLException {
        long before = lastEvent;
        readAfter(connection, lastEvent, Long.MAX_VALUE, event -> {
            space.follow(event);
            lastEvent = event.seq(); // per event: when one fails to apply, those before it are not applied again
        });
        eventsReadNanos = System.nanoTime();
        if (lastEvent != before) {
            keepPosition();
        }
    }

    /** Hands each event after {@code from} up to {@code upTo} to {@code each}, in order. */
    private void readAfter(Connection connection, long from, long upTo, Consumer<TeamEvent> each) throws SQLException {
        long seq = from;
        List<TeamEvent> events;
        do {
            counts.eventReads.incrementAndGet();
            events = TeamDatabase.eventsAfter(connection, seq, EVENT_PAGE);
            for (TeamEvent event : events) {
                if (event.seq() > upTo) {
                    return;
                }
                each.accept(event);
                seq = event.seq();
            }
        } while (events.size() == EVENT_PAGE);
    }

    private void keepPosition() {
        try {
            position.write(lastEvent);
        } catch (IOException e) {
            LOG.debug("could not keep the team position: {}", e.toString());
        }
    }

    private void renew(Connection connection) throws SQLException {
        counts.renewals.incrementAndGet();
        Instant before = space.now();
        TeamDatabase.Renewed renewed = TeamDatabase.renew(connection, settings.machine(), settings.ttl());
        clocksCompared(renewed.databaseNow(), before, space.now());
        TeamDatabase.Renewal renewal = renewed.renewal();
        int held = space.claimsHeld();
        if (renewal == TeamDatabase.Renewal.RENEWED && renewed.claims() < held) {
            // The lease held, so no machine could take a claim of this one: a claim row went by another way (someone
            // wrote to the database directly). Each claim is checked now; one taken meanwhile is a conflict both hear of.
            epoch++;
            LOG.warn("the team database has {} claims of this machine, which holds {}: checking each again",
                    renewed.claims(), held);
            space.recheck(connection);
        }
        if (renewal == TeamDatabase.Renewal.MISSING) {
            TeamDatabase.join(connection, settings.machine(), settings.host(), settings.ttl());
        }
        if (renewal != TeamDatabase.Renewal.RENEWED) {
            epoch++; // every claim of this machine is checked again at its next use
            LOG.warn("this machine's team lease had lapsed; its claims are checked again before their next use");
        }
        confirmed();
        renewDueNanos = System.nanoTime() + settings.renewEvery().toNanos();
    }

    private boolean waitFor(Duration pause) {
        synchronized (wakeUp) {
            try {
                TimeUnit.MILLISECONDS.timedWait(wakeUp, pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return running;
    }

    TeamView view(int claimedHere, int unsynced, int knownElsewhere, java.util.Map<String, Long> statements) {
        boolean connected = claims != null;
        List<TeamMachine> machines = List.of();
        List<TeamSession> sessions = List.of();
        List<TeamLock> locks = List.of();
        String machinesError = null;
        // A connection of its own, kept between calls: a dashboard asks every few seconds, and the claims and the
        // link's connections belong to their threads.
        synchronized (statusLock) {
            try {
                if (status == null) {
                    status = TeamDatabase.open(settings.url(), CONNECT_BOUND, READ_BOUND);
                }
                machines = TeamDatabase.machines(status);
                sessions = TeamDatabase.sessions(status);
                locks = TeamDatabase.everyHold(status).stream().map(TeamLock::of).toList();
            } catch (SQLException e) {
                machinesError = e.getMessage();
                closeQuietly(status);
                status = null;
            }
        }
        return new TeamView(settings.url().shown(), settings.machine(), settings.host(), connected,
                connected ? null : unreachableSince, connected ? null : lastError, settings.strict(),
                settings.ttl().toSeconds(), settings.perBranch() ? "branch" : "repository", claimedHere, unsynced,
                knownElsewhere, statements, machines, sessions, locks, machinesError);
    }

    @Override
    public void close() {
        running = false;
        wake();
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            closeQuietly(claims);
            closeQuietly(work);
            claims = null;
            work = null;
        }
        synchronized (statusLock) {
            closeQuietly(status);
            status = null;
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("closing a team connection: {}", e.getMessage());
        }
    }
}
