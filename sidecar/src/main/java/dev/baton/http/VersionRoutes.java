package dev.baton.http;

import dev.baton.Baton;
import dev.baton.lock.CanonicalPath;
import dev.baton.version.Versions;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Putting a held file's last kept version back ({@code baton restore FILE}): its holder, proven as for any verb
 * ({@link Callers}), or the supervisor ({@link Supervisor}), whose restore is audited with who it was.
 */
final class VersionRoutes {

    record RestoreBody(String sessionId, String file, String cwd) {
    }

    private final Baton baton;

    VersionRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/versions/restore", this::restore);
    }

    private void restore(Context ctx) {
        RestoreBody body = Bodies.read(ctx, RestoreBody.class);
        String file = CanonicalPath.of(body.file(), body.cwd(), Callers.self(ctx));
        Versions.Restored restored;
        if (Supervisor.is(ctx)) {
            String actor = Supervisor.require(baton, ctx, "restoring a file's kept version for its holder");
            restored = baton.versions().restore(file, null, actor);
        } else {
            String session = Callers.verify(baton, ctx, body.sessionId()).id();
            restored = baton.versions().restore(file, session, session);
        }
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("file", restored.file());
        reply.put("restored", true);
        reply.put("version", restored.hash());
        reply.put("size", restored.size());
        reply.put("holder", restored.sessionId());
        reply.put("changed_by", restored.changedBy());
        Bodies.reply(ctx, reply);
    }
}
