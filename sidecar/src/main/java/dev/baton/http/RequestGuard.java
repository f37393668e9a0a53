package dev.baton.http;

import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Set;

/**
 * The checks every request passes before it reaches a route: a loopback Host (DNS rebinding),
 * no foreign Origin (a web page in the user's browser), and the bearer token (other local users): the agents'
 * token, or the supervisor's, which marks the request as the supervising person's.
 */
final class RequestGuard {

    private static final Set<String> LOOPBACK_HOSTS = Set.of("127.0.0.1", "localhost", "[::1]");

    private final byte[] token;
    private final byte[] supervisorToken;
    private volatile int port;

    RequestGuard(String token, String supervisorToken) {
        this.token = token.getBytes(StandardCharsets.US_ASCII);
        this.supervisorToken = supervisorToken.getBytes(StandardCharsets.US_ASCII);
    }

    void port(int actualPort) {
        this.port = actualPort;
    }

    void check(Context ctx, boolean needsToken) {
        checkHost(ctx.header("Host"));
        checkOrigin(ctx.header("Origin"));
        if (needsToken && checkToken(ctx.header("Authorization"))) {
            ctx.attribute(Supervisor.ATTRIBUTE, true);
        }
    }

    void checkHost(String host) {
        if (host == null) {
            return; // HTTP/1.0 clients may omit it; they cannot be steered by DNS rebinding
        }
        String name = host.toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon > name.lastIndexOf(']')) {
            name = name.substring(0, colon);
        }
        if (!LOOPBACK_HOSTS.contains(name)) {
            throw new BatonException(ErrorCode.FORBIDDEN,
                    "Host '" + host + "' is not this machine's loopback; Baton answers only 127.0.0.1 and localhost");
        }
    }

    void checkOrigin(String origin) {
        if (origin == null) {
            return;
        }
        String own1 = "http://127.0.0.1:" + port;
        String own2 = "http://localhost:" + port;
        if (!origin.equals(own1) && !origin.equals(own2)) {
            throw new BatonException(ErrorCode.FORBIDDEN,
                    "cross-origin requests are refused (Origin: " + origin + "); Baton is not callable from web pages");
        }
    }

    /** Throws unless the request carries a token; true when it is the supervisor's. */
    boolean checkToken(String authorization) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            throw new BatonException(ErrorCode.UNAUTHORIZED,
                    "missing 'Authorization: Bearer <token>'; the token is in $BATON_HOME/token");
        }
        byte[] given = authorization.substring("Bearer ".length()).trim().getBytes(StandardCharsets.US_ASCII);
        if (MessageDigest.isEqual(given, supervisorToken)) {
            return true;
        }
        if (!MessageDigest.isEqual(given, token)) {
            throw new BatonException(ErrorCode.UNAUTHORIZED, "wrong token; read it again from $BATON_HOME/token");
        }
        return false;
    }
}
