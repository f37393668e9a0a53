package dev.baton.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The in-memory copy of everything the store holds: one {@link Table} per row kind, loaded once at start.
 * Read it only inside {@link Ledger#read} or a transaction; it is changed only by {@link Transaction}.
 */
public final class World {

    private final Map<RowKind<?, ?>, Table<?, ?>> tables = new IdentityHashMap<>();

    World(Store store, List<RowKind<?, ?>> kinds) {
        kinds.forEach(kind -> load(store, kind));
    }

    private <K, R> void load(Store store, RowKind<K, R> kind) {
        Table<K, R> table = new Table<>(kind);
        List<R> rows = store.load(kind);
        if (kind.loadOrder() != null) {
            rows = new ArrayList<>(rows);
            rows.sort(kind.loadOrder());
        }
        rows.forEach(table::put);
        tables.put(kind, table);
    }

    @SuppressWarnings("unchecked")
    public <K, R> Table<K, R> table(RowKind<K, R> kind) {
        Table<K, R> table = (Table<K, R>) tables.get(kind);
        if (table == null) {
            throw new IllegalStateException("the ledger was not given the row kind " + kind.table());
        }
        return table;
    }

    public <K, R> Optional<R> find(RowKind<K, R> kind, K key) {
        return table(kind).find(key);
    }

    public <K, R> Collection<R> rows(RowKind<K, R> kind) {
        return table(kind).rows();
    }

    public int count(RowKind<?, ?> kind) {
        return table(kind).size();
    }

    /** The keys of the rows in one group of a kind (the files a session holds), in order. */
    public <K, R> SortedSet<K> keysIn(RowKind<K, R> kind, Object group) {
        return table(kind).keysIn(group);
    }
}
