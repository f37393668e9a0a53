package dev.baton.dashboard.view;

import javafx.css.PseudoClass;

/** The row states the stylesheet colours. */
final class Pseudo {

    static final PseudoClass DEAD = PseudoClass.getPseudoClass("dead");
    static final PseudoClass WAITING = PseudoClass.getPseudoClass("waiting");
    static final PseudoClass NEAR = PseudoClass.getPseudoClass("near");
    static final PseudoClass ELIGIBLE = PseudoClass.getPseudoClass("eligible");
    static final PseudoClass SETTLED = PseudoClass.getPseudoClass("settled");

    private Pseudo() {
    }
}
