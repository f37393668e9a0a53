package dev.baton.lock;

import java.time.Duration;
import java.util.List;

/**
 * An acquire as the domain sees it: canonical files, how long to wait for progress, whether it is
 * all-or-nothing (a hook's edit), and whether it starts an edit (PreToolUse) that PostToolUse ends.
 */
public record AcquireRequest(String sessionId, List<String> files, Duration waitFor, boolean allOrNothing, boolean startEdit) {

    /** The longest an acquire may wait for a held file, in seconds, whichever interface asks. */
    public static final int MAX_WAIT_SECONDS = 600;

    public AcquireRequest {
        files = List.copyOf(files);
        if (files.isEmpty()) {
            throw dev.baton.state.BatonException.invalid("no files to acquire: name at least one file");
        }
        if (waitFor == null || waitFor.isNegative()) {
            throw dev.baton.state.BatonException.invalid("wait must be zero or positive");
        }
    }

    public static AcquireRequest explicit(String sessionId, List<String> files, Duration waitFor) {
        return new AcquireRequest(sessionId, files, waitFor, false, false);
    }
}
