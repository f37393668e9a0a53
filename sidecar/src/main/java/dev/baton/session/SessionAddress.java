package dev.baton.session;

import java.util.Optional;

/**
 * How a session of another machine of a team is named: {@code MACHINE/SESSION}, in the audit log, on the team's event
 * log (the recipient of a message, a negotiation step or a conflict) and in a deadlock's members. The one place that
 * writes and reads that form.
 */
public final class SessionAddress {

    private SessionAddress() {
    }

    public static String of(String machine, String session) {
        return machine + "/" + session;
    }

    /** The session of {@code machine} that {@code address} names; empty when it names another machine's, or nothing. */
    public static Optional<String> sessionOn(String machine, String address) {
        String prefix = machine + "/";
        return address != null && address.startsWith(prefix) ? Optional.of(address.substring(prefix.length()))
                : Optional.empty();
    }
}
