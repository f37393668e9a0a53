package dev.baton.http;

import dev.baton.Baton;
import dev.baton.session.ConnectionPeer;
import dev.baton.session.ProcessAncestry;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.session.SessionProof;
import io.javalin.http.Context;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;

/**
 * Who an agent-side request acts for: the session named in the request, proved by its key in a header (never
 * the URL, which ends up in logs), or else by the connection itself, whose process the sidecar asks the kernel
 * for. Nothing the caller writes about its own process counts.
 */
public final class Callers {

    public static final String KEY_HEADER = "X-Baton-Key";

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
        return new SessionProof.Peer(LoopbackPeer.of(ctx));
    }

    /** The process behind the request's connection, as the kernel names it when asked. */
    public static ConnectionPeer peer(Context ctx) {
        return LoopbackPeer.of(ctx);
    }

    /**
     * The process behind the request's connection; {@code pidHint}, then the children of {@code parentHint}, are
     * looked at first (the kernel still decides: the process found must hold the connection's socket).
     */
    public static Optional<ProcessIdentity> process(Context ctx, long pidHint, long parentHint) {
        return peer(ctx).find(LongStream.concat(pidHint > 0 ? LongStream.of(pidHint) : LongStream.empty(),
                ProcessAncestry.children(parentHint)));
    }

    /**
     * The pid a path through {@code /proc/self} means in this request: the process behind its connection, looked up
     * only when such a path comes (0 when the kernel cannot name it, and the path is then refused).
     */
    public static LongSupplier self(Context ctx) {
        return () -> process(ctx, 0, 0).map(ProcessIdentity::pid).orElse(0L);
    }

    /** True where the kernel can name the process behind a connection (Linux). */
    public static boolean kernelNamesPeers(Context ctx) {
        return LoopbackPeer.of(ctx) != ConnectionPeer.UNKNOWN;
    }

    /** The session's own directory is where its relative paths start, unless the request names one. */
    static String cwdOf(Session session, String cwd) {
        return cwd != null ? cwd : session.cwd();
    }
}
