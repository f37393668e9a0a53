package dev.baton.state;

import java.util.Comparator;
import java.util.List;

/**
 * One kind of row the state keeps (the lock table, the sessions, the messages, …), declared by the domain
 * package that owns it: its table and columns, its key, and how a record maps to column values and back.
 * The kernel and the stores handle every kind alike through this, so a new entity touches only its own
 * package. Implementations are singletons; the kernel tells kinds apart by identity.
 *
 * @param <K> the key, unique within the kind
 * @param <R> the record one row holds
 */
public interface RowKind<K, R> {

    /** How a kind's rows are kept in memory, which is the order readers see them in. */
    enum Order {
        /** No order; the fastest lookups. */
        HASHED,
        /** In the order they were first saved; at start-up in {@link #loadOrder()}. */
        INSERTION,
        /** By key ({@code K} is comparable). */
        BY_KEY
    }

    /** The table's name, which the store uses for it (the SQLite table, for instance). */
    String table();

    /** The columns, the key's first: {@link #values} gives one value for each, in this order. */
    List<Column> columns();

    /** How many of the first columns make up the key. */
    default int keyColumns() {
        return 1;
    }

    K key(R row);

    /** The row's column values in {@link #columns()} order, of the Java types {@link Column.Type} names. */
    Object[] values(R row);

    /** The record a stored row holds. */
    R read(Row row);

    default Order order() {
        return Order.HASHED;
    }

    /** For {@link Order#INSERTION}: the order rows are put in at start-up, which the stored rows do not keep. */
    default Comparator<? super R> loadOrder() {
        return null;
    }

    /**
     * The group a row belongs to (a lock's session, a receipt's message), or null when the kind is not
     * grouped; the kernel then keeps each group's keys, sorted, for {@link Table#keysIn}.
     */
    default Object group(R row) {
        return null;
    }
}
