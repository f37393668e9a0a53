package dev.baton.http;

import dev.baton.state.ErrorCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the requests Jetty refuses before any route sees them (a NUL or other illegal character
 * in the URI, a malformed request line, oversized headers) in the API's error shape instead of an
 * HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {

    @Override
    protected void generateResponse(Request request, Response response, int status, String message, Throwable cause,
                                    Callback callback) {
        status = shown(status, cause);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        // Jetty drops the connection after refusing a malformed request; say so, or the client reuses it and
        // its next request on that connection fails with no answer at all.
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.write(true, body(status, message), callback);
    }

    /**
     * A request Jetty could not read is the client's fault, whatever status Jetty picked: HTTP/0.9 (505), a body
     * that ended before its Content-Length (500 from the early end of the stream).
     */
    static int shown(int status, Throwable cause) {
        if (status == 505) {
            return 400;
        }
        for (Throwable c = cause; c != null && status >= 500; c = c.getCause()) {
            if (c instanceof IOException || c instanceof org.eclipse.jetty.http.HttpException) {
                return 400;
            }
        }
        return status;
    }

    private static ByteBuffer body(int status, String message) {
        ErrorCode code = ApiError.codeOf(status);
        String shown = message == null || message.isBlank() ? "malformed request" : message;
        try {
            return ByteBuffer.wrap(Json.mapper().writeValueAsBytes(ApiError.of(code, "the request was refused before"
                    + " it reached a route (" + shown + "); check the URL for control characters and the request line"
                    + " and headers for HTTP syntax")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
