package dev.baton.server;

import java.io.IOException;

/** A second sidecar on the same BATON_HOME would split the locks in two; it refuses to start. */
public final class AlreadyRunningException extends IOException {

    public AlreadyRunningException(String message) {
        super(message);
    }
}
