package dev.baton.negotiation;

import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.World;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How sessions and files are named in the sentences agents read: short ids, agent kind, name (and machine, for a party
 * on another machine of the team); paths relative to the reader.
 */
final class Parties {

    private Parties() {
    }

    /** The requester: a session of this machine, or "AGENT session ID on machine M" when another machine's. */
    static String requester(World world, Negotiation n) {
        return n.requesterElsewhere() ? remote(n.remoteAgent(), n.requesterId(), n.requesterMachine())
                : describe(world, n.requesterId());
    }

    /** The holder: a session of this machine, or "AGENT session ID on machine M" when another machine's. */
    static String holder(World world, Negotiation n) {
        return n.holderElsewhere() ? remote(n.remoteAgent(), n.holderId(), n.holderMachine())
                : describe(world, n.holderId());
    }

    private static String remote(String agent, String sessionId, String machine) {
        return (agent == null || agent.isBlank() ? "" : agent + " ") + "session " + shortId(sessionId) + " on machine "
                + machine;
    }

    private static String shortId(String sessionId) {
        return Session.shortId(sessionId);
    }

    static String describe(World world, String sessionId) {
        Optional<Session> session = world.find(SessionRows.SESSIONS, sessionId);
        String shortId = shortId(sessionId);
        if (session.isEmpty()) {
            return "session " + shortId + " (ended)";
        }
        Session s = session.get();
        String name = s.name() == null || s.name().isBlank() ? "" : " \"" + s.name() + "\"";
        return s.agent().wireName() + " session " + shortId + name;
    }

    /** The file as the reader would write it: relative to its working directory when inside it. */
    static String fileFor(World world, String readerId, String file) {
        Optional<Session> reader = world.find(SessionRows.SESSIONS, readerId);
        for (String base : new String[] {reader.map(Session::cwd).orElse(null), reader.map(Session::repoRoot).orElse(null)}) {
            if (base != null && file.startsWith(base + "/")) {
                return file.substring(base.length() + 1);
            }
        }
        return file;
    }

    static String quoted(String file) {
        return file.matches("[A-Za-z0-9_./@+-]+") ? file : "'" + file.replace("'", "'\\''") + "'";
    }

    static String in(Instant now, Instant then) {
        long seconds = Duration.between(now, then).toSeconds();
        if (seconds <= 0) {
            return "now";
        }
        return seconds < 90 ? "in " + seconds + " s" : "in " + ((seconds + 59) / 60) + " min";
    }
}
