package dev.baton.negotiation;

/** The answer to a negotiate call: the negotiation as it stands, and whether this call opened it (else it was open already). */
public record NegotiationOutcome(NegotiationView negotiation, boolean created) {
}
