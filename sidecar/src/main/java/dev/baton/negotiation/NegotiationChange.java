package dev.baton.negotiation;

import dev.baton.state.Change;

/** What the negotiation module's steps mean, for the listeners. */
public sealed interface NegotiationChange extends Change {

    /** A negotiation was opened, answered, resolved or marked timeout-eligible (an upsert). */
    record NegotiationSaved(Negotiation negotiation) implements NegotiationChange {
    }

    /** A long-resolved negotiation was pruned. */
    record NegotiationRemoved(Negotiation negotiation) implements NegotiationChange {
    }
}
