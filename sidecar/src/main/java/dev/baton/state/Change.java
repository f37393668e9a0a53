package dev.baton.state;

/**
 * What a step of a transaction meant, in commit order for the listeners (the event stream) and the
 * interceptors. Each domain package declares its own changes (a lock saved, a session ended); the kernel
 * declares the ones it writes itself: audit entries and the event log.
 */
public interface Change {

    record Audited(AuditEntry entry) implements Change {
    }

    /** An event row of the change stream, written in the transaction whose changes it describes. */
    record EventRecorded(EventRecord event) implements Change {
    }

    /** Events up to and including {@code throughSeq} are past retention and are deleted. */
    record EventsPruned(long throughSeq) implements Change {
    }
}
