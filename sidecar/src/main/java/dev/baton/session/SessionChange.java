package dev.baton.session;

import dev.baton.state.Change;
import java.util.List;

/** What the session module's steps mean, for the listeners; a session's end is the lock module's (it ends with its locks). */
public sealed interface SessionChange extends Change {

    record SessionSaved(Session session) implements SessionChange {
    }

    /** A main session ended: its id is kept with the process that ran it, so that no other process takes it up. */
    record SessionEnded(EndedSession ended) implements SessionChange {
    }

    /** An ended session's id was taken up again (by its agent, or a resume of it). */
    record EndedSessionTakenUp(String id) implements SessionChange {
    }

    /** These ended sessions are past retention and forgotten. */
    record EndedSessionsPruned(List<String> ids) implements SessionChange {
    }
}
