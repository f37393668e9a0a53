package dev.baton.state;

import java.util.List;

/**
 * What one commit writes, from one or more transactions: the row writes in the order they were made (a
 * row may be saved and removed again within one batch), the audit entries to append, the events to append,
 * and the event sequence number through which older events are deleted (0 for none).
 *
 * @param version the ledger's version after the batch's last transaction; it counts from 0 at each start,
 *                so it orders the batches of one run and nothing more
 */
public record Batch(long version, List<RowWrite> rows, List<AuditEntry> audit, List<EventRecord> events,
                    long eventsPrunedThrough) {
}
