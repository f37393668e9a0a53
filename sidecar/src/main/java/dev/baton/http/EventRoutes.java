package dev.baton.http;

import dev.baton.events.EventStream;
import dev.baton.events.FrameSink;
import dev.baton.events.Subscriber;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.websocket.WsConnectContext;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;

/**
 * The event stream over WebSocket: {@code /v1/events[?since=N]}. The upgrade passes the API's guard
 * (loopback Host, no foreign Origin, bearer token); frames go out through Jetty's asynchronous send.
 */
public final class EventRoutes {

    /** The stream pings quiet connections; a client that stops reading entirely is dropped after this. */
    private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(5);

    private final EventStream stream;
    private final Map<String, Subscriber> clients = new ConcurrentHashMap<>();

    private EventRoutes(EventStream stream) {
        this.stream = stream;
    }

    public static Consumer<RoutesConfig> of(EventStream stream) {
        return new EventRoutes(stream)::register;
    }

    private void register(RoutesConfig routes) {
        routes.wsBeforeUpgrade("/v1/events", ctx -> since(ctx.queryParam("since")));
        routes.ws("/v1/events", ws -> {
            ws.onConnect(this::connected);
            ws.onMessage(ctx -> {
                Subscriber subscriber = clients.get(ctx.sessionId());
                if (subscriber != null) {
                    subscriber.received(ctx.message());
                }
            });
            ws.onClose(ctx -> gone(ctx.sessionId()));
            ws.onError(ctx -> gone(ctx.sessionId()));
        });
    }

    private void connected(WsConnectContext ctx) {
        // Not Javalin's automatic pings: they run on a JVM-wide thread that outlives the server.
        ctx.session.setIdleTimeout(IDLE_TIMEOUT);
        clients.put(ctx.sessionId(), stream.connect(new JettySink(ctx.session), since(ctx.queryParam("since"))));
    }

    private void gone(String id) {
        Subscriber subscriber = clients.remove(id);
        if (subscriber != null) {
            subscriber.cancel();
        }
    }

    static Long since(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            long since = Long.parseLong(value.trim());
            if (since < 0) {
                throw BatonException.invalid("since must be zero or more, was " + since);
            }
            return since;
        } catch (NumberFormatException e) {
            throw BatonException.invalid("since must be the number of the last event you processed, was '" + value + "'");
        }
    }

    private record JettySink(Session session) implements FrameSink {
        @Override
        public void send(String frame, Runnable sent, Consumer<Throwable> failed) {
            session.sendText(frame, Callback.from(sent, failed));
        }

        @Override
        public void ping() {
            session.sendPing(ByteBuffer.allocate(0), Callback.NOOP);
        }

        @Override
        public void close(String reason) {
            session.close(StatusCode.NORMAL, reason, Callback.NOOP);
        }
    }
}
