package dev.baton.deadlock;

import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The waits Baton knows of, and the wait-for edges they make through the lock table as it is now.
 * Changed only inside a ledger transaction, each step with its undo, so a failed commit leaves it
 * as it was; read only under the ledger.
 */
final class WaitForGraph {

    private record Key(String waiter, String file, WaitKind kind) {
        static Key of(Wait wait) {
            return new Key(wait.waiter(), wait.file(), wait.kind());
        }
    }

    private final Map<Key, Wait> waits = new LinkedHashMap<>();
    private final Map<Key, Instant> expiries = new HashMap<>();
    private volatile int expiring;

    boolean isEmpty() {
        return waits.isEmpty();
    }

    /** How many waits end by themselves at a time (denied edits); read without the ledger by the expiry timer. */
    int expiring() {
        return expiring;
    }

    Optional<Wait> get(String waiter, String file, WaitKind kind) {
        return Optional.ofNullable(waits.get(new Key(waiter, file, kind)));
    }

    List<Wait> of(String waiter) {
        return waits.values().stream().filter(wait -> wait.waiter().equals(waiter)).toList();
    }

    List<Wait> all() {
        return List.copyOf(waits.values());
    }

    List<Wait> expired(Instant now) {
        List<Wait> expired = new ArrayList<>();
        expiries.forEach((key, at) -> {
            if (!at.isAfter(now)) {
                expired.add(waits.get(key));
            }
        });
        return expired;
    }

    /** Adds the wait, or moves its expiry when it is known already. */
    void put(Transaction tx, Wait wait, Instant expiresAt) {
        Key key = Key.of(wait);
        Wait previous = waits.put(key, wait);
        Instant previousExpiry = expiresAt == null ? expiries.remove(key) : expiries.put(key, expiresAt);
        expiring = expiries.size();
        tx.onRollback(() -> restore(key, previous, previousExpiry));
    }

    void remove(Transaction tx, Wait wait) {
        Key key = Key.of(wait);
        Wait previous = waits.remove(key);
        Instant previousExpiry = expiries.remove(key);
        expiring = expiries.size();
        tx.onRollback(() -> restore(key, previous, previousExpiry));
    }

    /** The session whose lock the wait is blocked on now; empty while the file is free or usable by the waiter. */
    static Optional<String> blockingHolder(World world, Wait wait) {
        Optional<FileLock> lock = world.find(LockRows.FILES, wait.file());
        if (lock.isEmpty()) {
            return Optional.empty();
        }
        String holder = lock.get().sessionId();
        String parent = world.find(SessionRows.SESSIONS, wait.waiter()).map(Session::parentId).orElse(null);
        if (holder.equals(wait.waiter()) || holder.equals(parent) || world.find(SessionRows.SESSIONS, holder).isEmpty()) {
            return Optional.empty(); // a subagent may use its parent's files
        }
        return Optional.of(holder);
    }

    /** waiter → (holder → files waited for), over the lock table as it is now. */
    Map<String, Map<String, SortedSet<String>>> edges(World world) {
        Map<String, Map<String, SortedSet<String>>> edges = new TreeMap<>();
        for (Wait wait : waits.values()) {
            blockingHolder(world, wait).ifPresent(holder -> edges
                    .computeIfAbsent(wait.waiter(), w -> new TreeMap<>())
                    .computeIfAbsent(holder, h -> new TreeSet<>())
                    .add(wait.file()));
        }
        return edges;
    }

    List<WaitView> views(World world) {
        return waits.values().stream()
                .map(wait -> new WaitView(wait.waiter(),
                        world.find(LockRows.FILES, wait.file()).map(FileLock::sessionId).orElse(null), wait.file(), wait.kind().wireName(), wait.since()))
                .toList();
    }

    private void restore(Key key, Wait previous, Instant previousExpiry) {
        restoreEntry(waits, key, previous);
        restoreEntry(expiries, key, previousExpiry);
        expiring = expiries.size();
    }

    private static <V> void restoreEntry(Map<Key, V> map, Key key, V previous) {
        if (previous == null) {
            map.remove(key);
        } else {
            map.put(key, previous);
        }
    }
}
