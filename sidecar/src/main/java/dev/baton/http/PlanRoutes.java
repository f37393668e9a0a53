package dev.baton.http;

import dev.baton.Baton;
import dev.baton.session.Session;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Map;

/** Plans over HTTP: anyone reads them; a session publishes its own. */
final class PlanRoutes {

    record PlanBody(String sessionId, String goal, String currentTask) {
    }

    private final Baton baton;

    PlanRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.get("/v1/plans", ctx -> Bodies.reply(ctx, Map.of("plans", baton.plans().list())));
        routes.get("/v1/plans/{session}", ctx -> Bodies.reply(ctx, baton.plans().of(ctx.pathParam("session"))));
        routes.post("/v1/plans", this::publish);
    }

    private void publish(Context ctx) {
        PlanBody body = Bodies.read(ctx, PlanBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        Bodies.reply(ctx, baton.plans().publish(session.id(), body.goal(), body.currentTask()));
    }
}
