package dev.baton.state;

import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.lock.ReleaseReason;
import dev.baton.message.Message;
import dev.baton.message.MessageReceipt;
import dev.baton.negotiation.Negotiation;
import dev.baton.session.EndedSession;
import dev.baton.session.Session;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A unit of change: each step updates the world at once (so later steps see it) and is recorded,
 * both as a durable {@link Change} and as an undo step, so a store failure leaves memory as it was.
 */
public final class Transaction {

    private final World world;
    private final Instant now;
    private final List<Change> changes = new ArrayList<>();
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

    public void saveSession(Session session) {
        Session previous = world.putSession(session);
        undo.push(() -> restoreSession(session.id(), previous));
        changes.add(new Change.SessionSaved(session));
        if (previous == null) {
            EndedSession ended = world.removeEndedSession(session.id());
            if (ended != null) {
                undo.push(() -> world.putEndedSession(ended));
                changes.add(new Change.EndedSessionTakenUp(session.id()));
            }
        }
    }

    /** Removes the session; a main session's id is kept as ended ({@link EndedSession}). */
    public void removeSession(Session session, ReleaseReason reason) {
        Session previous = world.removeSession(session.id());
        if (previous == null) {
            return;
        }
        undo.push(() -> world.putSession(previous));
        changes.add(new Change.SessionRemoved(previous, reason));
        if (previous.parentId() == null) {
            EndedSession ended = EndedSession.of(previous, now,
                    reason == ReleaseReason.HOLDER_EXITED || reason == ReleaseReason.HEARTBEAT_EXPIRED);
            EndedSession before = world.putEndedSession(ended);
            undo.push(() -> {
                world.removeEndedSession(ended.id());
                if (before != null) {
                    world.putEndedSession(before);
                }
            });
            changes.add(new Change.SessionEnded(ended));
        }
    }

    /** Forgets ended sessions past retention: those that ended before {@code before}, and all but the newest {@code keep}. */
    public void pruneEndedSessions(Instant before, int keep) {
        List<EndedSession> past = world.endedSessionsPastRetention(before, keep);
        if (past.isEmpty()) {
            return;
        }
        past.forEach(ended -> world.removeEndedSession(ended.id()));
        undo.push(() -> past.forEach(world::putEndedSession));
        changes.add(new Change.EndedSessionsPruned(past.stream().map(EndedSession::id).toList()));
    }

    public void saveLock(FileLock lock, boolean newlyAcquired) {
        FileLock previous = world.putLock(lock);
        undo.push(() -> restoreLock(lock.file(), previous));
        changes.add(new Change.LockSaved(lock, newlyAcquired));
    }

    public void removeLock(FileLock lock, ReleaseReason reason, String actor) {
        FileLock previous = world.removeLock(lock.file());
        if (previous == null) {
            return;
        }
        undo.push(() -> world.putLock(previous));
        changes.add(new Change.LockRemoved(previous, reason, actor));
    }

    public void saveNamedLock(NamedLock lock) {
        NamedLock previous = world.putNamedLock(lock);
        undo.push(() -> {
            if (previous == null) {
                world.removeNamedLock(lock.name());
            } else {
                world.putNamedLock(previous);
            }
        });
        changes.add(new Change.NamedLockSaved(lock));
    }

    public void removeNamedLock(NamedLock lock, ReleaseReason reason) {
        NamedLock previous = world.removeNamedLock(lock.name());
        if (previous == null) {
            return;
        }
        undo.push(() -> world.putNamedLock(previous));
        changes.add(new Change.NamedLockRemoved(previous, reason));
    }

    public void saveNegotiation(Negotiation negotiation) {
        Negotiation previous = world.putNegotiation(negotiation);
        undo.push(() -> {
            if (previous == null) {
                world.removeNegotiation(negotiation.id());
            } else {
                world.putNegotiation(previous);
            }
        });
        changes.add(new Change.NegotiationSaved(negotiation));
    }

    public void removeNegotiation(Negotiation negotiation) {
        Negotiation previous = world.removeNegotiation(negotiation.id());
        if (previous == null) {
            return;
        }
        undo.push(() -> world.putNegotiation(previous));
        changes.add(new Change.NegotiationRemoved(previous));
    }

    /** Saves a new message; its id must be {@link World#nextMessageId()}. */
    public void saveMessage(Message message) {
        Message previous = world.putMessage(message);
        undo.push(() -> {
            world.removeMessage(message.id());
            if (previous != null) {
                world.putMessage(previous);
            }
        });
        changes.add(new Change.MessageSaved(message));
    }

    public void removeMessage(Message message) {
        if (world.message(message.id()).isEmpty()) {
            return;
        }
        Map<String, MessageReceipt> receipts = world.removeMessage(message.id());
        undo.push(() -> {
            world.putMessage(message);
            receipts.values().forEach(world::putReceipt);
        });
        changes.add(new Change.MessageRemoved(message));
    }

    public void saveReceipt(MessageReceipt receipt) {
        MessageReceipt previous = world.putReceipt(receipt);
        undo.push(() -> {
            if (previous == null) {
                world.removeReceipt(receipt.messageId(), receipt.sessionId());
            } else {
                world.putReceipt(previous);
            }
        });
        changes.add(new Change.MessageReceiptSaved(receipt));
    }

    public void audit(String action, String sessionId, String file, String reason, String actor) {
        changes.add(new Change.Audited(AuditEntry.of(now, action, sessionId, file, reason, actor)));
    }

    /**
     * Records a change that alters nothing in the world: an event row, or a step of a module that keeps
     * its own in-memory state (the wait-for graph) and registers its undo with {@link #onRollback}.
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

    void rollback() {
        while (!undo.isEmpty()) {
            undo.pop().run();
        }
        changes.clear();
    }

    private void restoreSession(String id, Session previous) {
        if (previous == null) {
            world.removeSession(id);
        } else {
            world.putSession(previous);
        }
    }

    private void restoreLock(String file, FileLock previous) {
        if (previous == null) {
            world.removeLock(file);
        } else {
            world.putLock(previous);
        }
    }
}
