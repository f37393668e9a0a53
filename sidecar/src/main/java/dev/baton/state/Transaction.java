package dev.baton.state;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A unit of change: each step updates the world at once (so later steps see it) and is recorded, both as
 * a row write for the store and as an undo step, so a store failure leaves memory as it was. What a step
 * means (a lock acquired, a session ended) is recorded beside it as a {@link Change} for the listeners.
 */
public final class Transaction {

    private final World world;
    private final Instant now;
    private final List<Change> changes = new ArrayList<>();
    private final List<RowWrite> writes = new ArrayList<>();
    private final Deque<Runnable> undo = new ArrayDeque<>();

    Transaction(World world, Instant now) {
        this.world = world;
        this.now = now;
    }

    public World world() {
        return world;
    }

    public Instant now() {
        return now;
    }

    /** Saves the row, replacing the one with its key; returns that one, or null. */
    public <K, R> R put(RowKind<K, R> kind, R row) {
        Table<K, R> table = world.table(kind);
        R previous = table.put(row);
        undo.push(() -> {
            if (previous == null) {
                table.remove(kind.key(row));
            } else {
                table.put(previous);
            }
        });
        writes.add(new RowWrite.Upsert<>(kind, row));
        return previous;
    }

    /** Removes the row with this key; returns it, or null (and writes nothing) when there was none. */
    public <K, R> R remove(RowKind<K, R> kind, K key) {
        Table<K, R> table = world.table(kind);
        R previous = table.remove(key);
        if (previous == null) {
            return null;
        }
        undo.push(() -> table.put(previous));
        writes.add(new RowWrite.Delete<>(kind, previous));
        return previous;
    }

    public void audit(String action, String sessionId, String file, String reason, String actor) {
        changes.add(new Change.Audited(AuditEntry.of(now, action, sessionId, file, reason, actor)));
    }

    /**
     * Records what a step meant, for the listeners and interceptors: the domain's own changes (a lock
     * saved, a wait started), an event row, or a step of a module that keeps its own in-memory state (the
     * wait-for graph) and registers its undo with {@link #onRollback}.
     */
    public void record(Change change) {
        changes.add(change);
    }

    /** Undoes a module's own in-memory step if this transaction fails, in reverse order with the world's. */
    public void onRollback(Runnable undoStep) {
        undo.push(undoStep);
    }

    List<Change> changes() {
        return changes;
    }

    List<RowWrite> writes() {
        return writes;
    }

    boolean changedNothing() {
        return changes.isEmpty() && writes.isEmpty();
    }

    void rollback() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        changes.clear();
        writes.clear();
    }
}
