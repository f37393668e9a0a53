package dev.baton.http;

import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Caps what request bodies may cost before a byte of them is read: a declared length above the limit is refused
 * at once (so {@code Expect: 100-continue} never gets its 100), and the bodies being read at the same time may
 * together declare at most a fixed budget, so many large bodies cannot exhaust the heap. A body of unknown length
 * counts as the largest allowed; bodies under 1 MiB are not counted. A request over budget is told to retry (429); it changed nothing.
 */
final class BodyBudget extends Handler.Wrapper {

    static final long SMALL_BODY = 1024 * 1024;

    private final long maxBody;
    private final long budget;
    private final AtomicLong reserved = new AtomicLong();

    BodyBudget(long maxBody, long budget) {
        this.maxBody = maxBody;
        this.budget = budget;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long declared = request.getLength();
        if (declared > maxBody) {
            Response.writeError(request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413,
                    "the body is " + declared + " bytes; the limit is " + (maxBody >> 20) + " MiB");
            return true;
        }
        boolean chunked = declared < 0 && request.getHeaders().contains("Transfer-Encoding");
        // Small bodies (every ordinary call, every hook but a large Write) are not counted: a client that declares
        // large bodies and trickles them can then hold up only other large bodies, never the ordinary calls.
        long cost = chunked ? maxBody : declared >= SMALL_BODY ? declared : 0;
        if (cost > 0 && reserved.addAndGet(cost) > budget) {
            reserved.addAndGet(-cost);
            Response.writeError(request, response, callback, HttpStatus.TOO_MANY_REQUESTS_429,
                    "the sidecar is already reading " + (budget >> 20) + " MiB of request bodies; try again in a moment");
            return true;
        }
        Callback released = cost == 0 ? callback : Callback.from(callback, () -> reserved.addAndGet(-cost));
        boolean handled;
        try {
            handled = super.handle(request, response, released);
        } catch (Exception | Error e) {
            if (cost > 0) {
                reserved.addAndGet(-cost);
            }
            throw e;
        }
        if (!handled && cost > 0) {
            reserved.addAndGet(-cost);
        }
        return handled;
    }

    long reservedBytes() {
        return reserved.get();
    }
}
