package dev.baton.negotiation;

import dev.baton.session.Session;

/**
 * The other machines of a team, for negotiations whose other party runs there: each step taken here is sent to the
 * machine that keeps the other side of the request, and reaches its session at its next hook call. {@link #NONE}
 * knows no other machine.
 */
public interface NegotiationRelay {

    NegotiationRelay NONE = new NegotiationRelay() {
        @Override
        public void request(Negotiation negotiation, Session requester) {
        }

        @Override
        public void answer(Negotiation negotiation, Session holder) {
        }

        @Override
        public void withdraw(Negotiation negotiation) {
        }
    };

    /**
     * Sends a new request of a session of this machine to the holder's machine ({@code holderMachine}). Throws a
     * {@link dev.baton.state.BatonException} when it cannot be sent now, so that the request is not opened.
     */
    void request(Negotiation negotiation, Session requester);

    /** Tells the requester's machine that the holder deferred, or that the file is released, as the row now says. */
    void answer(Negotiation negotiation, Session holder);

    /**
     * Tells the holder's machine that the requester withdrew (or ended). Never throws: a withdrawal that cannot be
     * sent leaves the holder's row open until the file is released there.
     */
    void withdraw(Negotiation negotiation);
}
