package dev.baton.state;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rows of one kind in memory, with the index every request needs (a file's holder is a key lookup, a
 * session's files a group). Read it inside {@link Ledger#read} or a transaction; only {@link Transaction}
 * changes it, so that every change is recorded and can be undone.
 */
public final class Table<K, R> {

    private final RowKind<K, R> kind;
    private final Map<K, R> rows;
    /** Each group's keys, for kinds that are grouped. */
    private final Map<Object, SortedSet<K>> groups = new HashMap<>();
    /** The highest key ever put, kept after its row goes, so that ids handed out from it only grow. */
    private K highestKey;

    Table(RowKind<K, R> kind) {
        this.kind = kind;
        this.rows = switch (kind.order()) {
            case HASHED -> new HashMap<>();
            case INSERTION -> new LinkedHashMap<>();
            case BY_KEY -> new TreeMap<>();
        };
    }

    public RowKind<K, R> kind() {
        return kind;
    }

    public Optional<R> find(K key) {
        return Optional.ofNullable(rows.get(key));
    }

    public Collection<R> rows() {
        return Collections.unmodifiableCollection(rows.values());
    }

    public int size() {
        return rows.size();
    }

    /** The keys of one group's rows in order; empty when it has none. */
    public SortedSet<K> keysIn(Object group) {
        SortedSet<K> keys = groups.get(group);
        return keys == null ? Collections.emptySortedSet() : Collections.unmodifiableSortedSet(keys);
    }

    /** The rows by key, for a kind kept {@link RowKind.Order#BY_KEY}. */
    public NavigableMap<K, R> byKey() {
        if (!(rows instanceof TreeMap<K, R> sorted)) {
            throw new IllegalStateException(kind.table() + " rows are not kept by key");
        }
        return Collections.unmodifiableNavigableMap(sorted);
    }

    /** The highest key this table has held since the start, null when none; for a kind kept by key. */
    public K highestKey() {
        return highestKey;
    }

    R put(R row) {
        K key = kind.key(row);
        R previous = rows.put(key, row);
        Object group = kind.group(row);
        if (previous != null) {
            Object was = kind.group(previous);
            if (was != null && !was.equals(group)) {
                unindex(was, key);
            }
        }
        if (group != null) {
            groups.computeIfAbsent(group, g -> new TreeSet<>()).add(key);
        }
        if (kind.order() == RowKind.Order.BY_KEY && (highestKey == null || compare(key, highestKey) > 0)) {
            highestKey = key;
        }
        return previous;
    }

    R remove(K key) {
        R previous = rows.remove(key);
        if (previous != null) {
            Object group = kind.group(previous);
            if (group != null) {
                unindex(group, key);
            }
        }
        return previous;
    }

    @SuppressWarnings("unchecked")
    private int compare(K a, K b) {
        return ((Comparable<K>) a).compareTo(b);
    }

    private void unindex(Object group, K key) {
        SortedSet<K> keys = groups.get(group);
        if (keys != null) {
            keys.remove(key);
            if (keys.isEmpty()) {
                groups.remove(group);
            }
        }
    }
}
