package dev.baton.http;

import dev.baton.Baton;
import dev.baton.session.Session;
import dev.baton.session.SessionProof;
import dev.baton.state.BatonException;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Who an agent-side request acts for: the session named in the request, proved by headers (never
 * the URL, which ends up in logs) — the session's key, or the calling process for the sidecar to
 * check against the session's agent process.
 */
public final class Callers {

    public static final String KEY_HEADER = "X-Baton-Key";
    public static final String CALLER_PID_HEADER = "X-Baton-Caller-Pid";
    public static final String CALLER_START_HEADER = "X-Baton-Caller-Start";

    private Callers() {
    }

    static Session verify(Baton baton, Context ctx, String sessionId) {
        return baton.identity().verify(LockRoutes.requireSession(sessionId), proof(ctx));
    }

    private static SessionProof proof(Context ctx) {
        String key = ctx.header(KEY_HEADER);
        if (key != null && !key.isBlank()) {
            return new SessionProof.Key(key.trim());
        }
        String pid = ctx.header(CALLER_PID_HEADER);
        if (pid == null || pid.isBlank()) {
            return null;
        }
        long parsed;
        try {
            parsed = Long.parseLong(pid.trim());
        } catch (NumberFormatException e) {
            throw BatonException.invalid(CALLER_PID_HEADER + " must be a process id, was '" + pid + "'");
        }
        if (parsed <= 0) {
            throw BatonException.invalid(CALLER_PID_HEADER + " must be positive, was " + parsed);
        }
        String start = ctx.header(CALLER_START_HEADER);
        try {
            return new SessionProof.Descendant(parsed, start == null || start.isBlank() ? null : Instant.parse(start.trim()));
        } catch (DateTimeParseException e) {
            throw BatonException.invalid(CALLER_START_HEADER + " must be an ISO-8601 instant, was '" + start + "'");
        }
    }

    /** The session's own directory is where its relative paths start, unless the request names one. */
    static String cwdOf(Session session, String cwd) {
        return cwd != null ? cwd : session.cwd();
    }
}
