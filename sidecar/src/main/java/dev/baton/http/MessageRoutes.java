package dev.baton.http;

import dev.baton.Baton;
import dev.baton.message.InboxQuery;
import dev.baton.message.ReadOutcome;
import dev.baton.message.SentMessage;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Messages over HTTP: send, read one's inbox, mark read, all acting for a proved session; and the supervisor's listing
 * of every message.
 */
final class MessageRoutes {

    record SendBody(String sessionId, String to, String text) {
    }

    record ReadBody(String sessionId, List<Long> ids, Boolean all) {
    }

    private final Baton baton;

    MessageRoutes(Baton baton) {
        this.baton = baton;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/messages", this::send);
        routes.get("/v1/messages", this::inbox);
        routes.post("/v1/messages/read", this::read);
    }

    private void send(Context ctx) {
        SendBody body = Bodies.read(ctx, SendBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        SentMessage sent = baton.messages().send(session.id(), body.to(), body.text());
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("message", sent.message());
        reply.put("recipients", sent.recipients());
        Bodies.reply(ctx, 201, reply);
    }

    private void inbox(Context ctx) {
        if (Bodies.booleanQuery(ctx, "all")) {
            everyMessage(ctx);
            return;
        }
        Session session = Callers.verify(baton, ctx, ctx.queryParam("session_id"));
        InboxQuery query = new InboxQuery(Bodies.booleanQuery(ctx, "unread"), ctx.queryParam("from"), instantQuery(ctx, "since"),
                Bodies.intQuery(ctx, "page", 1, 1, Integer.MAX_VALUE),
                Bodies.intQuery(ctx, "page_size", InboxQuery.DEFAULT_PAGE_SIZE, 1, InboxQuery.MAX_PAGE_SIZE));
        Bodies.reply(ctx, baton.messages().inbox(session.id(), query));
    }

    /** How many of the newest messages the supervisor's listing returns at most. */
    static final int MAX_SUPERVISED_MESSAGES = 1000;

    /**
     * {@code GET /v1/messages?all=true}: every session's messages, for the supervisor (the dashboard's Messages page).
     * Private messages of every session are the supervisor's to read: it needs the supervisor token.
     */
    private void everyMessage(Context ctx) {
        Supervisor.require(baton, ctx, "reading every session's messages");
        if (ctx.queryParam("session_id") != null) {
            throw BatonException.invalid("all=true lists every session's messages; leave out session_id (or drop all=true"
                    + " to read one session's inbox)");
        }
        int limit = Bodies.intQuery(ctx, "limit", MAX_SUPERVISED_MESSAGES, 1, MAX_SUPERVISED_MESSAGES);
        Bodies.reply(ctx, Map.of("messages", baton.messages().everyMessage(limit)));
    }

    private void read(Context ctx) {
        ReadBody body = Bodies.read(ctx, ReadBody.class);
        Session session = Callers.verify(baton, ctx, body.sessionId());
        boolean all = Boolean.TRUE.equals(body.all());
        if (all && body.ids() != null) {
            throw BatonException.invalid("give either 'ids' or 'all', not both");
        }
        ReadOutcome outcome = all ? baton.messages().markAllRead(session.id())
                : baton.messages().markRead(session.id(), body.ids() == null ? List.of() : body.ids());
        Bodies.reply(ctx, outcome);
    }

    private static Instant instantQuery(Context ctx, String name) {
        String value = ctx.queryParam(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw BatonException.invalid("query parameter '" + name + "' must be an ISO-8601 instant such as "
                    + "2026-01-31T09:00:00Z, was '" + value + "'");
        }
    }
}
