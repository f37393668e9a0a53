package dev.baton.deadlock;

import dev.baton.state.Change;

/** What the deadlock module's steps mean, for the listeners; waits and deadlocks are kept in memory only. */
public sealed interface DeadlockChange extends Change {

    /** A session started waiting for a file (an acquire, a negotiation, a denied edit). */
    record WaitStarted(Wait waiting) implements DeadlockChange {
    }

    /** A wait ended: {@code how} is acquired, timeout, expired, session-ended, withdrawn, … */
    record WaitEnded(Wait waiting, String how) implements DeadlockChange {
    }

    record DeadlockDetected(Deadlock deadlock) implements DeadlockChange {
    }

    record DeadlockResolved(Deadlock deadlock, String how) implements DeadlockChange {
    }
}
