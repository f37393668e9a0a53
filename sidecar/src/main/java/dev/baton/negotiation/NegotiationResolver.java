package dev.baton.negotiation;

import dev.baton.lock.LockChange;
import dev.baton.state.Change;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import java.util.List;

/**
 * Resolves negotiations inside the transaction that decides them: a released file (by any path:
 * release, turn-end auto-release, session end, stale cleanup, force-release) resolves every open
 * request for it as released, and an ended requester withdraws its requests. Being in the same
 * transaction, the resolution is committed, and seen by listeners, together with its cause. A requester's
 * withdrawal is sent on to the holder's machine when that is another machine of the team.
 */
public final class NegotiationResolver implements Ledger.Interceptor {

    private final Negotiations negotiations;

    public NegotiationResolver(Negotiations negotiations) {
        this.negotiations = negotiations;
    }

    @Override
    public void beforeCommit(Transaction tx, List<Change> changes) {
        for (Change change : changes) {
            if (change instanceof LockChange.LockRemoved removed) {
                String file = removed.lock().file();
                String holder = removed.lock().sessionId();
                for (Negotiation n : List.copyOf(tx.world().rows(NegotiationRows.NEGOTIATIONS))) {
                    if (n.isOpen() && !n.holderElsewhere() && n.file().equals(file) && n.holderId().equals(holder)) {
                        NegotiationRows.save(tx,
                                n.resolved(NegotiationStatus.RELEASED, tx.now(), removed.reason().wireName()));
                    }
                }
            } else if (change instanceof LockChange.SessionRemoved ended) {
                String requester = ended.session().id();
                for (Negotiation n : List.copyOf(tx.world().rows(NegotiationRows.NEGOTIATIONS))) {
                    if (n.isOpen() && !n.requesterElsewhere() && n.requesterId().equals(requester)) {
                        Negotiation withdrawn = n.resolved(NegotiationStatus.WITHDRAWN, tx.now(), "requester-ended");
                        NegotiationRows.save(tx, withdrawn);
                        if (withdrawn.holderElsewhere()) {
                            negotiations.relay().withdraw(withdrawn);
                        }
                    }
                }
            }
        }
    }
}
