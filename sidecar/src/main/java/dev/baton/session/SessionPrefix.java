package dev.baton.session;

import dev.baton.state.BatonException;
import dev.baton.state.World;
import java.util.Comparator;
import java.util.List;

/** Finds a running session by its id or a unique start of it, as people type them (`3f2a`). */
public final class SessionPrefix {

    private static final int SHOWN = 5;

    private SessionPrefix() {
    }

    public static Session resolve(World world, String prefix) {
        if (prefix == null || prefix.isBlank()) {
            throw BatonException.invalid("a session id (or the start of one) is required");
        }
        String wanted = prefix.trim();
        if (world.find(SessionRows.SESSIONS, wanted).isPresent()) {
            return world.find(SessionRows.SESSIONS, wanted).get();
        }
        List<Session> matches = world.rows(SessionRows.SESSIONS).stream()
                .filter(session -> session.id().startsWith(wanted))
                .sorted(Comparator.comparing(Session::id))
                .toList();
        if (matches.isEmpty()) {
            throw BatonException.notFound("no running session id starts with '" + wanted
                    + "'; list the sessions with `baton status`");
        }
        if (matches.size() > 1) {
            List<String> shown = matches.stream().limit(SHOWN).map(Session::id).toList();
            throw BatonException.invalid("'" + wanted + "' matches " + matches.size() + " sessions (" + String.join(", ", shown)
                    + (matches.size() > SHOWN ? ", …" : "") + "); give more of the id");
        }
        return matches.get(0);
    }
}
