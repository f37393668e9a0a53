package dev.baton.state;

import dev.baton.deadlock.Deadlock;
import dev.baton.deadlock.Wait;
import dev.baton.lock.FileLock;
import dev.baton.lock.NamedLock;
import dev.baton.lock.ReleaseReason;
import dev.baton.message.Message;
import dev.baton.message.MessageReceipt;
import dev.baton.negotiation.Negotiation;
import dev.baton.session.EndedSession;
import dev.baton.session.Session;
import java.util.List;

/**
 * One durable change to Baton's state. The domain produces them, a {@link Store} commits them in
 * one transaction, and listeners (the event stream) see them in commit order.
 */
public sealed interface Change {

    record SessionSaved(Session session) implements Change {
    }

    record SessionRemoved(Session session, ReleaseReason reason) implements Change {
    }

    /** A main session ended: its id is kept with the process that ran it, so that no other process takes it up. */
    record SessionEnded(EndedSession ended) implements Change {
    }

    /** An ended session's id was taken up again (by its agent, or a resume of it). */
    record EndedSessionTakenUp(String id) implements Change {
    }

    /** These ended sessions are past retention and forgotten. */
    record EndedSessionsPruned(List<String> ids) implements Change {
    }

    record LockSaved(FileLock lock, boolean newlyAcquired) implements Change {
    }

    record LockRemoved(FileLock lock, ReleaseReason reason, String actor) implements Change {
    }

    record NamedLockSaved(NamedLock lock) implements Change {
    }

    record NamedLockRemoved(NamedLock lock, ReleaseReason reason) implements Change {
    }

    record Audited(AuditEntry entry) implements Change {
    }

    /** A negotiation was opened, answered, resolved or marked timeout-eligible (an upsert). */
    record NegotiationSaved(Negotiation negotiation) implements Change {
    }

    /** A long-resolved negotiation was pruned. */
    record NegotiationRemoved(Negotiation negotiation) implements Change {
    }

    record MessageSaved(Message message) implements Change {
    }

    /** A message nobody can read any more was pruned, with its receipts. */
    record MessageRemoved(Message message) implements Change {
    }

    /** One recipient's delivery or read state of one message (an upsert). */
    record MessageReceiptSaved(MessageReceipt receipt) implements Change {
    }

    /** A session started waiting for a file (an acquire, a negotiation, a denied edit); kept in memory only. */
    record WaitStarted(Wait waiting) implements Change {
    }

    /** A wait ended: {@code how} is acquired, timeout, expired, session-ended, withdrawn, … */
    record WaitEnded(Wait waiting, String how) implements Change {
    }

    record DeadlockDetected(Deadlock deadlock) implements Change {
    }

    record DeadlockResolved(Deadlock deadlock, String how) implements Change {
    }

    /** An event row of the change stream, written in the transaction whose changes it describes. */
    record EventRecorded(EventRecord event) implements Change {
    }

    /** Events up to and including {@code throughSeq} are past retention and are deleted. */
    record EventsPruned(long throughSeq) implements Change {
    }
}
