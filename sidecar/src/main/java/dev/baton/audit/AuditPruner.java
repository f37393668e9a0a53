package dev.baton.audit;

import dev.baton.session.SessionRows;
import dev.baton.state.Ledger;
import java.time.Instant;

/**
 * Keeps the audit log within its retention, a batch at a time so that no commit waits long behind it, and forgets the
 * ended sessions whose audit entries have gone. Run by the sweeper.
 */
public final class AuditPruner {

    /** Entries deleted at most per run: the sweeper runs every few seconds, so a backlog goes in minutes. */
    static final int BATCH = 5_000;

    private final Ledger ledger;
    private final AuditRetention retention;

    public AuditPruner(Ledger ledger, AuditRetention retention) {
        this.ledger = ledger;
        this.retention = retention;
    }

    /** One pruning step; returns how many audit entries were deleted. */
    public int prune() {
        Instant before = ledger.clock().instant().minus(retention.maxAge());
        int deleted = ledger.store().pruneAudit(before, retention.maxRows(), BATCH);
        ledger.write(tx -> {
            SessionRows.pruneEnded(tx, before, AuditRetention.MAX_ENDED_SESSIONS);
            return null;
        });
        return deleted;
    }
}
