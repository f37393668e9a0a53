package dev.baton.session;

import dev.baton.state.RowKind;
import dev.baton.state.Transaction;
import dev.baton.state.World;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The session module's rows, and the steps that change them: each step writes its rows through the
 * transaction and records the {@link SessionChange} that says what it meant.
 */
public final class SessionRows {

    /** Live sessions by id. */
    public static final RowKind<String, Session> SESSIONS = new SessionColumns();
    /** Ended main sessions by id, until their id is taken up again or they are past retention. */
    public static final RowKind<String, EndedSession> ENDED = new EndedSessionColumns();
    /** Every kind this module owns, for the ledger to load. */
    public static final List<RowKind<?, ?>> KINDS = List.of(SESSIONS, ENDED);

    private SessionRows() {
    }

    public static List<Session> subagentsOf(World world, String parentId) {
        return world.rows(SESSIONS).stream().filter(s -> parentId.equals(s.parentId())).toList();
    }

    /** Saves the session; a new one takes up its id if that had ended. */
    public static void save(Transaction tx, Session session) {
        Session previous = tx.put(SESSIONS, session);
        tx.record(new SessionChange.SessionSaved(session));
        if (previous == null && tx.remove(ENDED, session.id()) != null) {
            tx.record(new SessionChange.EndedSessionTakenUp(session.id()));
        }
    }

    /**
     * Keeps a removed main session's id as ended ({@link EndedSession}); {@code quietly} when it did not end
     * itself (its process exited, its heartbeat expired).
     */
    public static void keepEnded(Transaction tx, Session removed, boolean quietly) {
        EndedSession ended = EndedSession.of(removed, tx.now(), quietly);
        tx.put(ENDED, ended);
        tx.record(new SessionChange.SessionEnded(ended));
    }

    /** Forgets ended sessions past retention: those that ended before {@code before}, and all but the newest {@code keep}. */
    public static void pruneEnded(Transaction tx, Instant before, int keep) {
        List<EndedSession> newestFirst = tx.world().rows(ENDED).stream()
                .sorted(Comparator.comparing(EndedSession::endedAt).reversed().thenComparing(EndedSession::id))
                .toList();
        List<String> past = new ArrayList<>();
        for (int i = 0; i < newestFirst.size(); i++) {
            EndedSession ended = newestFirst.get(i);
            if (i >= keep || ended.endedAt().isBefore(before)) {
                past.add(ended.id());
            }
        }
        if (past.isEmpty()) {
            return;
        }
        past.forEach(id -> tx.remove(ENDED, id));
        tx.record(new SessionChange.EndedSessionsPruned(past));
    }
}
