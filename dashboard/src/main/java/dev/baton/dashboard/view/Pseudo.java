package dev.baton.dashboard.view;

import javafx.css.PseudoClass;

/** The row and window states the stylesheet colours. */
final class Pseudo {

    static final PseudoClass DEAD = PseudoClass.getPseudoClass("dead");
    static final PseudoClass WAITING = PseudoClass.getPseudoClass("waiting");
    static final PseudoClass NEAR = PseudoClass.getPseudoClass("near");
    static final PseudoClass ELIGIBLE = PseudoClass.getPseudoClass("eligible");
    static final PseudoClass SETTLED = PseudoClass.getPseudoClass("settled");
    /** A row of this sidecar's own machine, among the team's. */
    static final PseudoClass LOCAL = PseudoClass.getPseudoClass("local");
    /** The team's database does not answer: what the team shows may be stale. */
    static final PseudoClass UNREACHABLE = PseudoClass.getPseudoClass("unreachable");

    /** On the window's root while the event stream is down: the pages show the state as it was, dimmed. */
    static final PseudoClass OFFLINE = PseudoClass.getPseudoClass("offline");

    private Pseudo() {
    }
}
