package dev.baton.hook;

import dev.baton.lock.Holder;

/** Told whenever a hook edit is denied, so a wait-for graph can record that the session waits for the holder. */
@FunctionalInterface
public interface DeniedEditListener {

    DeniedEditListener NONE = (sessionId, file, holder) -> { };

    /** @param file the canonical path of the file the session could not lock */
    void denied(String sessionId, String file, Holder holder);
}
