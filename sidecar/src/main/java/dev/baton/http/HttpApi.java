package dev.baton.http;

import dev.baton.Baton;
import dev.baton.session.AgentKinds;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.state.StoreException;
import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import io.javalin.http.HttpResponseException;
import java.nio.channels.ServerSocketChannel;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.EagerContentHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP adapter: Javalin on 127.0.0.1 only, every route behind {@link RequestGuard}, and every
 * failure answered in the one error shape. Bad input is a 4xx; only a failing disk is a 503.
 */
public final class HttpApi implements AutoCloseable {

    /** A hook for a large Write carries the whole file; 64 MiB must pass, a 100 MiB body is refused. */
    public static final long MAX_BODY_BYTES = 80L * 1024 * 1024;
    /** What the bodies read at one time may declare together; with the copies parsing makes, it fits the heap set by the launchers. */
    public static final long BODY_BUDGET_BYTES = 160L * 1024 * 1024;
    /** A connection that sends nothing for this long is closed (Jetty's idle timeout). */
    static final long IDLE_TIMEOUT_MILLIS = 30_000;
    /** Jetty's threads: few kept while idle (each holds a stack), as many as Jetty's default under load. */
    static final int MIN_THREADS = 4;
    static final int MAX_THREADS = 200;
    /** The listening socket's queue of connections not yet accepted (the kernel caps it at somaxconn). */
    static final int ACCEPT_QUEUE = 1024;

    static {
        // Jetty otherwise asks the platform MBean server whether references are compressed, which starts JMX
        // (hundreds of classes, a tenth of start-up); they are, below the 32 GiB heap where the JVM compresses them.
        if (System.getProperty("org.eclipse.jetty.util.referencesPerCacheLine") == null) {
            System.setProperty("org.eclipse.jetty.util.referencesPerCacheLine", "16");
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);

    private final Javalin app;
    private final RequestGuard guard;

    private HttpApi(Javalin app, RequestGuard guard) {
        this.app = app;
        this.guard = guard;
    }

    /**
     * Starts serving; {@code kinds} are the kinds of session a registration may name, and {@code extraRoutes} lets
     * other adapters (hooks, MCP, events) mount their routes.
     */
    public static HttpApi start(Baton baton, AgentKinds kinds, String token, String supervisorToken, int port,
                                List<Consumer<RoutesConfig>> extraRoutes) {
        return start(baton, kinds, token, supervisorToken, port, null, extraRoutes);
    }

    /**
     * Like {@link #start(Baton, AgentKinds, String, String, int, List)}; a non-null {@code inherited} listener is
     * served instead of {@code port}.
     */
    public static HttpApi start(Baton baton, AgentKinds kinds, String token, String supervisorToken, int port,
                                ServerSocketChannel inherited, List<Consumer<RoutesConfig>> extraRoutes) {
        RequestGuard guard = new RequestGuard(token, supervisorToken);
        Instant startedAt = baton.clock().instant();
        ConnectionCap connections = ConnectionCap.forThisProcess();
        LOG.info("keeping at most {} connections open (the rest of this process's file descriptors stay free)",
                connections.cap());
        Javalin app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = port;
            config.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
                if (inherited != null) {
                    // Jetty takes System.inheritedChannel() itself; InheritedListener has checked it is this 127.0.0.1 one.
                    connector.setInheritChannel(true);
                }
                connector.setHost("127.0.0.1");
                connector.setPort(inherited != null ? inherited.socket().getLocalPort() : port);
                // A burst of connections waits in the kernel's queue rather than being dropped (the JDK's default is 50).
                connector.setAcceptQueueSize(ACCEPT_QUEUE);
                connector.addBean(connections); // its accepts, through the connector's selector manager
                connector.addEventListener(connections); // its connections, which Jetty gives the connector's listeners
                return connector;
            });
            QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, MIN_THREADS, (int) IDLE_TIMEOUT_MILLIS);
            threads.setName("JettyServerThreadPool");
            config.jetty.threadPool = threads;
            config.http.maxRequestSize = MAX_BODY_BYTES;
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            // No minimum data rate: Jetty measures it from the request's start, so a small body delayed by a pause
            // would be cut off; a slow body holds no thread anyway (below), and a silent one ends at the idle timeout.
            config.jetty.modifyHttpConfiguration(http -> http.setIdleTimeout(IDLE_TIMEOUT_MILLIS));
            // The body is read whole, asynchronously, before a route runs: a slow client holds no thread meanwhile.
            config.jetty.modifyServletContextHandler(context -> {
                context.insertHandler(connections.answering()); // innermost: after the body is read
                context.insertHandler(new EagerContentHandler(new EagerContentHandler.RetainedContentLoaderFactory(
                        MAX_BODY_BYTES, -1, true)));
                context.insertHandler(new BodyBudget(MAX_BODY_BYTES, BODY_BUDGET_BYTES));
            });
            RoutesConfig routes = config.routes;
            routes.before(ctx -> guard.check(ctx, !ctx.path().equals("/v1/health")));
            // Read the body even where no route wants it: answered before its body arrived, a request leaves Jetty
            // closing the connection afterwards, unannounced, and the client's next request on it gets no answer.
            routes.before(ctx -> ctx.bodyAsBytes());
            routes.wsBeforeUpgrade(ctx -> guard.check(ctx, true)); // HTTP before-handlers skip WebSocket upgrades
            new StatusRoutes(baton, startedAt).register(routes);
            new SessionRoutes(baton, kinds).register(routes);
            new LockRoutes(baton).register(routes);
            new NamedLockRoutes(baton).register(routes);
            new NegotiationRoutes(baton).register(routes);
            new MessageRoutes(baton).register(routes);
            new PlanRoutes(baton).register(routes);
            new VersionRoutes(baton).register(routes);
            extraRoutes.forEach(extra -> extra.accept(routes));
            routes.exception(BatonException.class, (e, ctx) ->
                    Bodies.reply(ctx, ApiError.statusOf(e.code()), ApiError.of(e.code(), e.getMessage())));
            routes.exception(StoreException.class, (e, ctx) -> {
                LOG.error("storage failure: {}", e.getMessage());
                Bodies.reply(ctx, 503, ApiError.of(ErrorCode.STORAGE, e.getMessage()));
            });
            routes.exception(HttpResponseException.class, (e, ctx) -> replyHttpError(ctx, e.getStatus(), e.getMessage()));
            routes.exception(Exception.class, (e, ctx) -> {
                if (JsonErrorHandler.shown(500, e) != 500) { // the client's request could not be read: its fault
                    Bodies.reply(ctx, 400, ApiError.of(ErrorCode.VALIDATION, "the request could not be read ("
                            + e.getMessage() + "); a body must be as long as its Content-Length says"));
                    return;
                }
                LOG.error("unexpected failure on {} {}", ctx.method(), ctx.path(), e);
                Bodies.reply(ctx, 500, ApiError.of(ErrorCode.INTERNAL,
                        "the sidecar failed on this request (" + e.getClass().getSimpleName() + "); see sidecar.log"));
            });
            routes.error(404, "*", ctx -> {
                if (ctx.result() == null || ctx.result().isEmpty()) {
                    Bodies.reply(ctx, 404, ApiError.of(ErrorCode.NOT_FOUND, "no route " + ctx.method() + " " + ctx.path()));
                }
            });
            routes.error(405, "*", ctx -> Bodies.reply(ctx, 405,
                    ApiError.of(ErrorCode.VALIDATION, "method " + ctx.method() + " is not allowed on " + ctx.path())));
            routes.error(413, "*", ctx -> Bodies.reply(ctx, 413, ApiError.of(ErrorCode.PAYLOAD_TOO_LARGE,
                    "the body is larger than " + (MAX_BODY_BYTES >> 20) + " MiB")));
        });
        app.start();
        guard.port(app.port());
        return new HttpApi(app, guard);
    }

    private static void replyHttpError(io.javalin.http.Context ctx, int status, String message) {
        int shown = status >= 500 ? 400 : status;
        Bodies.reply(ctx, shown, ApiError.of(ApiError.codeOf(shown), message == null || message.isBlank() ? "request refused" : message));
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}
