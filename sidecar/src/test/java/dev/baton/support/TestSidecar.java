package dev.baton.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.Baton;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.lock.CanonicalPath;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * A real sidecar on port 0, in process, with the production adapters, and an HTTP client that talks to it with the
 * token as any client would. {@link #in} puts BATON_HOME and a working tree (src/App.java, Util.java, Other.java)
 * into a temporary directory; {@link #onHome} runs on a given BATON_HOME alone. The keys of the sessions registered
 * through it are kept, and survive a {@link #restart}, as the sidecar's do.
 *
 * <p>{@link #get}, {@link #post}, {@link #delete} and {@code send} answer the {@link Reply} whatever its status; the
 * session shortcuts {@link #register(String)}, {@link #acquire(String, String, int)}, {@link #release} and
 * {@link #endSession} answer the body and throw {@link ApiFailure} on a 4xx or 5xx.
 */
public final class TestSidecar implements AutoCloseable {

    /** A fixed morning a test's clock may start at, the same in every run and after every restart. */
    public static final Instant MORNING = Instant.parse("2026-03-02T09:00:00Z");

    private final Builder options;
    private final Path repo;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private final Map<String, String> keys = new ConcurrentHashMap<>();
    private volatile Sidecar sidecar;
    private volatile SidecarAdapters.Modules modules;
    private volatile String token;

    private TestSidecar(Builder options, Path repo) {
        this.options = options;
        this.repo = repo;
    }

    /** BATON_HOME {@code dir/home} and a working tree {@code dir/repo}; the production options until changed. */
    public static Builder in(Path dir) {
        return new Builder(dir.resolve("home"), dir.resolve("repo"));
    }

    /** BATON_HOME {@code home} itself, and no working tree. */
    public static Builder onHome(Path home) {
        return new Builder(home, null);
    }

    /** The options the tests choose; what is not chosen is the production default. */
    public static final class Builder {

        private final Path home;
        private final Path repo;
        private MutableClock clock;
        private Duration sweepEvery;
        private Map<String, String> env = System.getenv();
        private UnaryOperator<SidecarOptions> tuning = UnaryOperator.identity();

        private Builder(Path home, Path repo) {
            this.home = home;
            this.repo = repo;
        }

        /** A clock the test moves. */
        public Builder clock(MutableClock testClock) {
            this.clock = testClock;
            return this;
        }

        /** A clock the test moves, starting now; the sweeper never runs on its own (tests sweep when they mean to). */
        public Builder manualClock() {
            return clock(MutableClock.startingNow()).sweepEvery(Duration.ofHours(1));
        }

        /**
         * A clock the test moves, starting {@code later} than {@link #MORNING} (a restart after that much time), and
         * a sweeper every 200 ms, so a holder that went away is noticed while the test waits.
         */
        public Builder fixedClock(Duration later) {
            return clock(new MutableClock(MORNING.plus(later))).sweepEvery(Duration.ofMillis(200));
        }

        public Builder fixedClock() {
            return fixedClock(Duration.ZERO);
        }

        public Builder sweepEvery(Duration every) {
            this.sweepEvery = every;
            return this;
        }

        /** The environment the adapters read their settings from (the process's own by default). */
        public Builder env(Map<String, String> adapterEnv) {
            this.env = Map.copyOf(adapterEnv);
            return this;
        }

        /** Any other change to the sidecar's options, applied last. */
        public Builder options(UnaryOperator<SidecarOptions> change) {
            this.tuning = change;
            return this;
        }

        public TestSidecar start() {
            try {
                Path tree = null;
                if (repo != null) {
                    tree = Files.createDirectories(repo).toRealPath();
                    Files.createDirectories(tree.resolve("src"));
                    for (String name : new String[] {"App.java", "Util.java", "Other.java"}) {
                        Path file = tree.resolve("src").resolve(name);
                        if (!Files.exists(file)) {
                            Files.writeString(file, "class " + name.replace(".java", "") + " {}\n");
                        }
                    }
                }
                TestSidecar started = new TestSidecar(this, tree);
                started.boot();
                return started;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private SidecarOptions sidecarOptions() {
            SidecarOptions chosen = SidecarOptions.defaults(new BatonHome(home), 0);
            if (clock != null) {
                chosen = chosen.withClock(clock);
            }
            if (sweepEvery != null) {
                chosen = chosen.withSweepEvery(sweepEvery);
            }
            return tuning.apply(chosen);
        }
    }

    private void boot() {
        try {
            AtomicReference<SidecarAdapters.Modules> installed = new AtomicReference<>();
            sidecar = Sidecar.start(options.sidecarOptions(), baton -> {
                installed.set(SidecarAdapters.Modules.install(baton, options.env));
                return SidecarAdapters.routes(baton, installed.get());
            });
            modules = installed.get();
            token = new BatonHome(options.home).readToken().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops and starts again on the same BATON_HOME (a new port), as after a crash and restart. */
    public void restart() {
        sidecar.close();
        boot();
    }

    public Sidecar sidecar() {
        return sidecar;
    }

    public Baton baton() {
        return sidecar.baton();
    }

    public SidecarAdapters.Modules modules() {
        return modules;
    }

    /** The test's clock; only when one was chosen. */
    public MutableClock clock() {
        if (options.clock == null) {
            throw new IllegalStateException("this sidecar runs on the system clock");
        }
        return options.clock;
    }

    public Path home() {
        return options.home;
    }

    /** The working tree (a real path); only for a sidecar started {@link #in} a directory. */
    public Path repo() {
        if (repo == null) {
            throw new IllegalStateException("this sidecar has no working tree");
        }
        return repo;
    }

    /** The lock key of a file of the working tree. */
    public String file(String relative) {
        return CanonicalPath.of(repo().resolve(relative).toString(), null);
    }

    public String token() {
        return token;
    }

    public int port() {
        return sidecar.port();
    }

    public String base() {
        return "http://127.0.0.1:" + port();
    }

    /** A registered agent session and its key. */
    public record Agent(String id, String key) {
        public Map<String, String> proof() {
            return Map.of(Callers.KEY_HEADER, key);
        }
    }

    /** Registers a Claude Code session whose agent process is {@code pid} (it must be running), in the working tree. */
    public Agent registerAgent(String id, long pid) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", "claude-code");
        body.put("pid", pid);
        body.put("cwd", repo().toString());
        Reply reply = post("/v1/sessions", body);
        if (reply.status() != 201) {
            throw new IllegalStateException("registering " + id + " failed: " + reply.body());
        }
        String key = reply.body().path("key").asText();
        keys.put(id, key);
        return new Agent(id, key);
    }

    /** A session whose agent is this test's JVM: always alive. */
    public Agent registerAgent(String id) {
        return registerAgent(id, ProcessHandle.current().pid());
    }

    /**
     * Registers a Claude Code session in the working tree, of process {@code pid} (null: none), and returns its id.
     * A test's clock moves on a second first, so sessions registered later are younger.
     */
    public String register(String id, Long pid) {
        if (options.clock != null) {
            options.clock.advance(Duration.ofSeconds(1));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", "claude-code");
        body.put("cwd", repo().toString());
        if (pid != null) {
            body.put("pid", pid);
        }
        JsonNode registered = post("/v1/sessions", body).json();
        if (registered.hasNonNull("key")) {
            keys.put(id, registered.path("key").asText());
        }
        return id;
    }

    public String register(String id) {
        return register(id, (Long) null);
    }

    /** Registers a session of {@code agent} for a process (null pid = no process), outside any working tree. */
    public String register(String id, String agent, Long pid) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", agent);
        if (pid != null) {
            body.put("pid", pid);
        }
        return register(body);
    }

    /** Registers a session with any registration fields, keeping the key it is issued; returns its id. */
    public String register(Map<String, Object> body) {
        Reply reply = post("/v1/sessions", body);
        if (reply.status() >= 300) {
            throw new IllegalStateException("register failed: " + reply);
        }
        String id = reply.body().path("session").path("id").asText();
        if (reply.body().hasNonNull("key")) {
            keys.put(id, reply.body().path("key").asText());
        }
        return id;
    }

    public String keyOf(String session) {
        String key = keys.get(session);
        if (key == null) {
            throw new IllegalStateException("session " + session + " was not registered through this sidecar");
        }
        return key;
    }

    /** The proof a session's own calls carry: the key it was issued when it registered (empty when none). */
    public Map<String, String> proof(String session) {
        return Map.of(Callers.KEY_HEADER, keys.getOrDefault(session, ""));
    }

    /** The agent acquires a file of the working tree ({@code relative} to it); the reply whatever its status. */
    public Reply acquire(Agent agent, String relative) {
        return post("/v1/locks/acquire", Map.of("session_id", agent.id(), "files", List.of(file(relative))), agent.proof());
    }

    public JsonNode acquire(String session, String file, int waitSeconds) {
        return post("/v1/locks/acquire", Map.of("session_id", session, "files", List.of(file), "wait_seconds", waitSeconds),
                proof(session)).json();
    }

    /** A waiting acquire in its own thread, as a blocked agent would make it. */
    public CompletableFuture<JsonNode> acquireInBackground(String session, String file, int waitSeconds) {
        return CompletableFuture.supplyAsync(() -> acquire(session, file, waitSeconds), waiters);
    }

    public JsonNode release(String session, String file) {
        return post("/v1/locks/release", Map.of("session_id", session, "files", List.of(file)), proof(session)).json();
    }

    /** The session ends itself: the call carries its key. */
    public JsonNode endSession(String session) {
        return delete("/v1/sessions/" + session, proof(session)).json();
    }

    public EventClient events(Long since) {
        return EventClient.connect(port(), token, since, true);
    }

    public EventClient stalledEvents() {
        return EventClient.connect(port(), token, null, false);
    }

    public Reply get(String path) {
        return get(path, Map.of());
    }

    public Reply get(String path, Map<String, String> headers) {
        return send(request(path).GET(), headers);
    }

    public Reply post(String path, Object body) {
        return post(path, body, Map.of());
    }

    public Reply post(String path, Object body, Map<String, String> headers) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json(body))), headers);
    }

    public Reply postRaw(String path, byte[] body) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    /** A call a registered session makes for itself: it carries the key the session was issued. */
    public Reply postAs(String session, String path, Object body) {
        return postRawAs(session, path, json(body));
    }

    public Reply postRawAs(String session, String path, byte[] body) {
        return send(request(path).header("Content-Type", "application/json").header(Callers.KEY_HEADER, keyOf(session))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    public Reply delete(String path) {
        return delete(path, Map.of());
    }

    public Reply delete(String path, Map<String, String> headers) {
        return send(request(path).DELETE(), headers);
    }

    /** A request made with the supervisor's token, as the dashboard and {@code baton … --supervisor} make them. */
    public Reply sendAsSupervisor(String method, String path, Object body) {
        try {
            String supervisor = new BatonHome(options.home).readSupervisorToken().orElseThrow();
            HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(json(body));
            return send(HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + supervisor).header("Content-Type", "application/json")
                    .method(method, publisher).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A GET with the supervisor's token, as the dashboard makes it. */
    public Reply getAsSupervisor(String path) {
        return sendAsSupervisor("GET", path, null);
    }

    /** A request to {@code path} with the agents' token and a timeout. */
    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token);
    }

    /** Sends {@code request} with the agents' token, a timeout and {@code headers} added. */
    public Reply send(HttpRequest.Builder request, Map<String, String> headers) {
        request.setHeader("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60));
        headers.forEach(request::header);
        return send(request.build());
    }

    public Reply send(HttpRequest request) {
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static byte[] json(Object body) {
        try {
            return Json.mapper().writeValueAsBytes(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        sidecar.close();
        waiters.shutdownNow();
    }

    /** A reply's status, body and headers. */
    public record Reply(int status, byte[] bytes, HttpHeaders headers) {

        /** The body as JSON; an empty body is an empty object. */
        public JsonNode body() {
            if (bytes.length == 0) {
                return Json.mapper().createObjectNode();
            }
            try {
                return Json.mapper().readTree(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + new String(bytes, StandardCharsets.UTF_8), e);
            }
        }

        /** The body of a successful answer; a 4xx or 5xx throws {@link ApiFailure}. */
        public JsonNode json() {
            if (status >= 400) {
                throw new ApiFailure(status, body());
            }
            return body();
        }

        public String errorCode() {
            return body().path("error").path("code").asText(null);
        }

        @Override
        public String toString() {
            return status + " " + new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** A 4xx or 5xx answer. */
    public static final class ApiFailure extends RuntimeException {
        public final int status;
        public final JsonNode body;

        ApiFailure(int status, JsonNode body) {
            super(status + " " + body);
            this.status = status;
            this.body = body;
        }
    }
}
