package dev.baton.team;

import dev.baton.deadlock.DeadlockChange;
import dev.baton.deadlock.Deadlocks;
import dev.baton.deadlock.TeamWaits;
import dev.baton.deadlock.WaitView;
import dev.baton.session.SessionRows;
import dev.baton.state.Ledger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * This machine's part of the team's wait-for graph. Its sessions' waits for files of shared repositories go to the
 * database whenever they change (one statement, which wakes the other machines); the team's edges come back from it,
 * the waits joined with the claims, and the deadlock module looks for cycles through several machines with them and
 * with this machine's own edges. Every machine reads the same rows, so each finds the same cycle and the same victim,
 * and only the victim's machine tells it (or, under {@code auto-release}, frees its files). Runs on the link's thread.
 */
final class TeamWaitGraph {

    private final String machine;
    private final RepositoryKeys keys;
    private final StatementCounts counts;
    /** Files this machine holds, by their team names: how an edge into one of its sessions names the file. */
    private final Supplier<Map<SharedPath, String>> heldHere;
    private final AtomicBoolean changed = new AtomicBoolean(true);
    private volatile Ledger ledger;
    private volatile Deadlocks deadlocks;
    /** The files this machine's sessions wait for, by their team names, as last shared. */
    private Map<SharedPath, String> waitedHere = Map.of();
    private TeamWaits known = TeamWaits.NONE;
    private boolean anyInTeam;

    TeamWaitGraph(String machine, RepositoryKeys keys, StatementCounts counts, Supplier<Map<SharedPath, String>> heldHere) {
        this.machine = machine;
        this.keys = keys;
        this.counts = counts;
        this.heldHere = heldHere;
    }

    /** Follows the waits of {@code deadlocks}; without it (no deadlock detection) nothing is shared. */
    void attach(Ledger ledger, Deadlocks deadlocks) {
        this.ledger = ledger;
        this.deadlocks = deadlocks;
        ledger.addListener(changes -> {
            if (changes.stream().anyMatch(change -> change instanceof DeadlockChange.WaitStarted
                    || change instanceof DeadlockChange.WaitEnded)) {
                changed.set(true);
            }
        });
    }

    /** After (re)connecting: this machine's rows are written again whole, and the team's read again. */
    void rejoined() {
        changed.set(true);
    }

    /**
     * Shares this machine's waits when they changed since they were last shared; true when it did (the team's edges are
     * then read again).
     */
    boolean share(Connection connection) throws SQLException {
        if (deadlocks == null || !changed.getAndSet(false)) {
            return false;
        }
        try {
            record Waiting(String family, String file) {
            }
            List<Waiting> waiting = ledger.read(world -> {
                List<Waiting> found = new ArrayList<>();
                for (WaitView wait : deadlocks.waits(world)) {
                    world.find(SessionRows.SESSIONS, wait.waiter())
                            .ifPresent(session -> found.add(new Waiting(session.familyId(), wait.file())));
                }
                return found;
            });
            Set<TeamDatabase.SharedWait> shared = new LinkedHashSet<>();
            Map<SharedPath, String> files = new HashMap<>();
            for (Waiting wait : waiting) { // outside the ledger: a file's team name may need git
                keys.of(wait.file()).ifPresent(key -> {
                    shared.add(new TeamDatabase.SharedWait(wait.family(), key));
                    files.put(key, wait.file());
                });
            }
            counts.waitShares.incrementAndGet();
            TeamDatabase.shareWaits(connection, machine, shared);
            waitedHere = files;
            return true;
        } catch (SQLException | RuntimeException e) {
            changed.set(true);
            throw e;
        }
    }

    /** Whether any machine of the team had a wait when the graph was last read: a claim or release may then close a cycle. */
    boolean anyInTeam() {
        return anyInTeam;
    }

    /** Reads the team's edges and hands them to the deadlock module when they differ from those it has. */
    void read(Connection connection) throws SQLException {
        if (deadlocks == null) {
            return;
        }
        counts.waitReads.incrementAndGet();
        List<TeamDatabase.TeamWait> rows = TeamDatabase.waits(connection);
        anyInTeam = !rows.isEmpty();
        Map<SharedPath, String> held = rows.stream().anyMatch(row -> row.holder() != null
                && row.holder().machine().equals(machine)) ? heldHere.get() : Map.of();
        Map<String, Map<String, SortedSet<String>>> edges = new TreeMap<>();
        Map<String, TeamWaits.Member> members = new LinkedHashMap<>();
        for (TeamDatabase.TeamWait row : rows) {
            if (row.holder() == null) {
                continue;
            }
            String waiter = node(row.waiter());
            String holder = node(row.holder());
            members.put(waiter, row.waiter());
            members.put(holder, row.holder());
            boolean waiterHere = row.waiter().machine().equals(machine);
            boolean holderHere = row.holder().machine().equals(machine);
            if (waiterHere && holderHere) {
                continue; // this machine's own graph has the edge, with its own names for the files
            }
            String file = Optional.ofNullable(holderHere ? held.get(row.file()) : waiterHere ? waitedHere.get(row.file()) : null)
                    .orElse(row.file().toString());
            edges.computeIfAbsent(waiter, w -> new TreeMap<>()).computeIfAbsent(holder, h -> new TreeSet<>()).add(file);
        }
        TeamWaits now = new TeamWaits(machine, edges, members);
        if (!now.equals(known)) {
            deadlocks.teamWaits(now);
            known = now;
        }
    }

    private String node(TeamWaits.Member member) {
        return TeamWaits.node(machine, member.machine(), member.session());
    }

}
