package dev.baton.liveness;

import dev.baton.session.ProcessIdentity;

/** Tells whether the process that took a lock is still the one running under its pid. */
@FunctionalInterface
public interface ProcessLiveness {

    Liveness of(ProcessIdentity process);
}
