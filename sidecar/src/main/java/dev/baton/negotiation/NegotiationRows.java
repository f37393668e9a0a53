package dev.baton.negotiation;

import dev.baton.state.RowKind;
import dev.baton.state.Transaction;
import java.util.List;

/**
 * The negotiation module's rows, and the steps that change them: each step writes its row through the
 * transaction and records the {@link NegotiationChange} that says what it meant.
 */
public final class NegotiationRows {

    /** Negotiations by id, open and recently resolved, oldest first. */
    public static final RowKind<String, Negotiation> NEGOTIATIONS = new NegotiationColumns();
    /** Every kind this module owns, for the ledger to load. */
    public static final List<RowKind<?, ?>> KINDS = List.of(NEGOTIATIONS);

    private NegotiationRows() {
    }

    /** Opens, answers, resolves or marks the negotiation (an upsert). */
    public static void save(Transaction tx, Negotiation negotiation) {
        tx.put(NEGOTIATIONS, negotiation);
        tx.record(new NegotiationChange.NegotiationSaved(negotiation));
    }

    public static void remove(Transaction tx, Negotiation negotiation) {
        Negotiation previous = tx.remove(NEGOTIATIONS, negotiation.id());
        if (previous != null) {
            tx.record(new NegotiationChange.NegotiationRemoved(previous));
        }
    }
}
