package dev.baton.deadlock;

import dev.baton.lock.FileLock;
import dev.baton.lock.LockChange;
import dev.baton.lock.LockRows;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.Change;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The open deadlocks and how they come and go: after every change to the wait-for graph or to the
 * holders it runs through, the cycles found now are compared with those open; a new one is reported
 * (event, audit, advice, and under {@code auto-release} the victim's files freed), a vanished one resolved.
 */
final class DeadlockDetector {

    /** A pathological graph stops the cycle search here; open deadlocks are then checked edge by edge. */
    static final int CYCLE_LIMIT = 64;

    private final WaitForGraph graph;
    private final DeadlockPolicy policy;
    private final Map<String, OpenDeadlock> open = new LinkedHashMap<>();
    /** The edges through other machines of a team; changed under the ledger only. */
    private TeamWaits team = TeamWaits.NONE;

    DeadlockDetector(WaitForGraph graph, DeadlockPolicy policy) {
        this.graph = graph;
        this.policy = policy;
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    Collection<OpenDeadlock> open() {
        return open.values();
    }

    /** Takes the team's edges as the database says them now; false when they are those known already. */
    boolean team(Transaction tx, TeamWaits now) {
        TeamWaits before = team;
        if (before.equals(now)) {
            return false;
        }
        team = now;
        tx.onRollback(() -> team = before);
        return true;
    }

    /** Compares the cycles in the graph now with the open deadlocks: new ones are detected, gone ones resolved. */
    void detect(Transaction tx, Cause cause) {
        World world = tx.world();
        Map<String, Map<String, SortedSet<String>>> edges = withTeam(graph.edges(world), world);
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
        if (policy == DeadlockPolicy.AUTO_RELEASE && autoRelease(tx, detected)) {
            detect(tx, Cause.of("auto-released"));
        }
    }

    /**
     * The local graph's edges and the team's, in one graph (the team's never join two sessions of this machine). A team
     * edge's end on this machine is checked against this machine's state now: the database is read a moment after a
     * change here, and a wait that ended or a file given back here must not keep or close a cycle meanwhile.
     */
    private Map<String, Map<String, SortedSet<String>>> withTeam(Map<String, Map<String, SortedSet<String>>> local,
                                                                 World world) {
        if (team.edges().isEmpty()) {
            return local;
        }
        Map<String, Map<String, SortedSet<String>>> all = new TreeMap<>(local);
        team.edges().forEach((waiter, holders) -> holders.forEach((holder, files) -> {
            for (String file : files) {
                if (isHere(waiter) ? waits(world, waiter, file) : !isHere(holder) || holds(world, holder, file)) {
                    all.computeIfAbsent(waiter, w -> new TreeMap<>()).computeIfAbsent(holder, h -> new TreeSet<>()).add(file);
                }
            }
        }));
        return all;
    }

    private boolean isHere(String node) {
        TeamWaits.Member member = team.members().get(node);
        return member != null && member.machine().equals(team.machine());
    }

    /** Whether a session of {@code family} (this machine's session, or one of its subagents) still waits for the file. */
    private boolean waits(World world, String family, String file) {
        return graph.all().stream().anyMatch(wait -> wait.file().equals(file) && familyOf(world, wait.waiter()).equals(family));
    }

    private static boolean holds(World world, String family, String file) {
        return world.find(LockRows.FILES, file).map(lock -> familyOf(world, lock.sessionId()).equals(family)).orElse(false);
    }

    private static String familyOf(World world, String session) {
        return world.find(SessionRows.SESSIONS, session).map(Session::familyId).orElse(session);
    }

    /**
     * The youngest session of the cycle. Every machine that sees a cycle through several machines chooses the same one:
     * by the start each session's own machine recorded, then by machine and session; only the victim's machine acts.
     */
    private String victimOf(Cycle cycle, World world) {
        record Age(Instant startedAt, String machine, String session) {
        }
        String here = team.machine() == null ? "" : team.machine();
        return cycle.sessions().stream()
                .max(Comparator.comparing((String id) -> {
                    TeamWaits.Member member = team.members().get(id);
                    if (member != null) {
                        return new Age(member.startedAt() == null ? Instant.MIN : member.startedAt(), member.machine(),
                                member.session());
                    }
                    return new Age(world.find(SessionRows.SESSIONS, id).map(Session::startedAt).orElse(Instant.MIN), here, id);
                }, Comparator.comparing(Age::startedAt).thenComparing(Age::machine).thenComparing(Age::session)))
                .orElseThrow();
    }

    private OpenDeadlock report(Transaction tx, Cycle cycle) {
        World world = tx.world();
        String victim = victimOf(cycle, world);
        Deadlock deadlock = new Deadlock(idOf(cycle, tx.now()), cycle.sessions(), cycle.allFiles(), victim, tx.now());
        OpenDeadlock opened = new OpenDeadlock(cycle, deadlock, DeadlockText.advice(deadlock, cycle, world, team),
                DeadlockText.note(deadlock, cycle, world, team));
        open.put(opened.key(), opened);
        tx.onRollback(() -> open.remove(opened.key()));
        tx.record(new DeadlockChange.DeadlockDetected(deadlock));
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
        tx.record(new DeadlockChange.DeadlockResolved(deadlock.deadlock, how));
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
                Optional<FileLock> lock = tx.world().find(LockRows.FILES, file)
                        .filter(held -> held.sessionId().equals(victim) && !held.editInFlight());
                if (lock.isPresent()) {
                    LockRows.remove(tx, lock.get(), ReleaseReason.DEADLOCK, "baton");
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
    record Cause(List<Change> changes, String fallback) {

        static Cause of(String how) {
            return new Cause(List.of(), how);
        }

        String how(OpenDeadlock deadlock) {
            for (Change change : changes) {
                if (change instanceof LockChange.SessionRemoved removed && deadlock.involves(removed.session().id())) {
                    return removed.reason().wireName();
                }
            }
            for (Change change : changes) {
                if (change instanceof LockChange.LockRemoved removed && deadlock.involvesFile(removed.lock().file())) {
                    return removed.reason() == ReleaseReason.DEADLOCK ? "auto-released" : removed.reason().wireName();
                }
                if (change instanceof LockChange.LockSaved saved && saved.newlyAcquired()
                        && deadlock.involvesFile(saved.lock().file())) {
                    return "holder-changed";
                }
            }
            return fallback == null ? "wait-ended" : fallback;
        }
    }
}
