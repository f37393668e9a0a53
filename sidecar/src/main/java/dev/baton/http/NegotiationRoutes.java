package dev.baton.http;

import dev.baton.Baton;
import dev.baton.lock.CanonicalPath;
import dev.baton.negotiation.Answer;
import dev.baton.negotiation.NegotiationOutcome;
import dev.baton.negotiation.NegotiationRequest;
import dev.baton.negotiation.NegotiationView;
import dev.baton.negotiation.Urgency;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Negotiations over HTTP. The parties act with proof of their session ({@link Callers}); a request
 * without a session is the supervisor's view (bearer token only) and sees every negotiation.
 */
final class NegotiationRoutes {

    record NegotiateBody(String sessionId, String file, String cwd, String reason, String urgency, Integer waitSeconds) {
    }

    record RespondBody(String sessionId, String answer, Integer etaMinutes, String reason) {
    }

    record PartyBody(String sessionId) {
    }

    record ForceReleaseBody(String sessionId, String file, String cwd) {
    }

    private final Baton baton;

    NegotiationRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/negotiations", this::negotiate);
        routes.get("/v1/negotiations", this::list);
        routes.post("/v1/negotiations/force-release", this::forceRelease);
        routes.get("/v1/negotiations/{id}", this::get);
        routes.post("/v1/negotiations/{id}/respond", this::respond);
        routes.post("/v1/negotiations/{id}/withdraw", this::withdraw);
    }

    private void negotiate(Context ctx) {
        NegotiateBody body = Bodies.read(ctx, NegotiateBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        String file = CanonicalPath.of(body.file(), Callers.cwdOf(session, body.cwd()), Callers.self(ctx));
        int wait = body.waitSeconds() == null ? 0 : body.waitSeconds();
        if (wait < 0 || wait > LockRoutes.MAX_WAIT_SECONDS) {
            throw BatonException.invalid("wait_seconds must be between 0 and " + LockRoutes.MAX_WAIT_SECONDS + ", was " + wait);
        }
        NegotiationOutcome outcome = baton.negotiations().negotiate(new NegotiationRequest(session.id(), file,
                body.reason(), Urgency.parse(body.urgency()), Duration.ofSeconds(wait)));
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("negotiation", outcome.negotiation());
        reply.put("created", outcome.created());
        Bodies.reply(ctx, outcome.created() ? 201 : 200, reply);
    }

    private void list(Context ctx) {
        String scope = ctx.queryParam("status");
        if (scope != null && !scope.equals("open") && !scope.equals("all")) {
            throw BatonException.invalid("status must be 'open' or 'all', was '" + scope + "'");
        }
        boolean openOnly = !"all".equals(scope);
        String sessionId = ctx.queryParam("session_id");
        String party = sessionId == null ? null : Callers.verify(baton, ctx, sessionId).id();
        List<NegotiationView> negotiations = baton.negotiations().list(party, openOnly);
        Bodies.reply(ctx, Map.of("negotiations", negotiations));
    }

    private void get(Context ctx) {
        String id = ctx.pathParam("id");
        String sessionId = ctx.queryParam("session_id");
        NegotiationView view = sessionId == null ? baton.negotiations().view(id)
                : baton.negotiations().viewFor(Callers.verify(baton, ctx, sessionId).id(), id);
        Bodies.reply(ctx, Map.of("negotiation", view));
    }

    private void respond(Context ctx) {
        RespondBody body = Bodies.read(ctx, RespondBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        Answer answer = Answer.of(body.answer(), body.etaMinutes(), body.reason());
        Bodies.reply(ctx, Map.of("negotiation", baton.negotiations().respond(session.id(), ctx.pathParam("id"), answer)));
    }

    private void withdraw(Context ctx) {
        PartyBody body = Bodies.read(ctx, PartyBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        Bodies.reply(ctx, Map.of("negotiation", baton.negotiations().withdraw(session.id(), ctx.pathParam("id"))));
    }

    private void forceRelease(Context ctx) {
        ForceReleaseBody body = Bodies.read(ctx, ForceReleaseBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        String file = CanonicalPath.of(body.file(), Callers.cwdOf(session, body.cwd()), Callers.self(ctx));
        Bodies.reply(ctx, Map.of("negotiation", baton.negotiations().forceRelease(session.id(), file)));
    }
}
