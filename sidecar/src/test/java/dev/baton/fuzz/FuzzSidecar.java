package dev.baton.fuzz;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import dev.baton.http.Json;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.lock.NamedLock;
import dev.baton.lock.ReleaseReason;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One real sidecar on port 0 for a whole fuzz run (starting one per input would leave no time to
 * fuzz), with sessions {@code a} and {@code b} registered, and a client that sends whatever bytes
 * the fuzzer made and gives up after a short time instead of the API's long waits.
 */
final class FuzzSidecar implements AutoCloseable {

    /** A reply, or {@code status == 0} when none came in time. */
    record Reply(int status, byte[] body, HttpHeaders headers, boolean unblocked) {

        boolean timedOut() {
            return status == 0;
        }

        JsonNode json() throws IOException {
            return Json.mapper().readTree(body);
        }

        String header(String name) {
            return headers.firstValue(name).orElseThrow(() -> new AssertionError("no " + name + " header"));
        }
    }

    /** Long enough for any answer, waits included once the harness freed the locks waited for. */
    static final Duration PATIENCE = Duration.ofSeconds(5);
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost");

    private final TestSidecar sidecar;
    private final TestSidecar.Agent a;
    private final TestSidecar.Agent b;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private String previous = "none";

    private FuzzSidecar(TestSidecar sidecar) {
        this.sidecar = sidecar;
        this.a = sidecar.registerAgent("a");
        this.b = sidecar.registerAgent("b");
    }

    static FuzzSidecar start(Path dir) throws IOException {
        return new FuzzSidecar(TestSidecar.in(dir).manualClock().start());
    }

    TestSidecar sidecar() {
        return sidecar;
    }

    TestSidecar.Agent a() {
        return a;
    }

    TestSidecar.Agent b() {
        return b;
    }

    URI uri(String path, String query) {
        try {
            // The multi-argument constructor quotes what the fuzzer put in that a URI may not hold.
            return new URI("http", null, "127.0.0.1", URI.create(sidecar.base()).getPort(), path, query, null);
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    /**
     * Sends the request; when it asked to wait (the body mentions "wait") and no answer came soon, every
     * lock is freed so the waiter returns at once instead of holding up the run for minutes.
     */
    Reply send(String method, URI uri, byte[] body, Map<String, String> headers) throws IOException, InterruptedException {
        allowConnectionsTo(uri.getPort());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(PATIENCE)
                .header("Authorization", "Bearer " + sidecar.token())
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        String shown = method + " " + uri + " with " + body.length + " bytes";
        boolean mayWait = new String(body, StandardCharsets.ISO_8859_1).contains("wait");
        CompletableFuture<HttpResponse<byte[]>> answer = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        boolean unblocked = false;
        while (true) {
            try {
                HttpResponse<byte[]> response = answer.get(mayWait ? 50 : PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
                previous = shown + " answered " + response.statusCode() + " " + response.headers().map();
                return new Reply(response.statusCode(), response.body(), response.headers(), unblocked);
            } catch (TimeoutException e) {
                if (System.nanoTime() - deadline > 0) {
                    answer.cancel(true);
                    previous = shown + " timed out";
                    return new Reply(0, new byte[0], HttpHeaders.of(Map.of(), (name, value) -> true), unblocked);
                }
                if (mayWait) {
                    unblockWaiters();
                    unblocked = true;
                }
            } catch (ExecutionException e) {
                // A dropped connection is often the fault of the request before, which left it unusable.
                throw new IOException("no answer to " + shown + "; the request before was " + previous, e.getCause());
            }
        }
    }

    /** The harness, not the input, picks where requests go: tell Jazzer's SSRF detector, which is re-armed per run. */
    private static void allowConnectionsTo(int port) {
        try {
            BugDetectors.allowNetworkConnections((host, to) -> to == port && LOOPBACK.contains(host));
        } catch (IllegalStateException e) {
            // Not under Jazzer (a plain JUnit test using this fixture): there is no detector to tell.
        }
    }

    /** Frees every lock so a request the fuzzer told to wait for one returns instead of holding a thread for minutes. */
    void unblockWaiters() {
        var baton = sidecar.baton();
        List<FileLock> locks = baton.ledger().read(world -> List.copyOf(world.rows(LockRows.FILES)));
        locks.forEach(lock -> baton.locks().release(lock.sessionId(), List.of(lock.file()), ReleaseReason.RELEASED));
        List<NamedLock> named = baton.ledger().read(world -> List.copyOf(world.rows(LockRows.NAMED)));
        named.forEach(lock -> baton.namedLocks().release(lock.name(), lock.holder().pid()));
    }

    @Override
    public void close() {
        sidecar.close();
    }
}
