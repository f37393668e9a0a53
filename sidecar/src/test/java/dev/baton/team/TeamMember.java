package dev.baton.team;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Json;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.support.SidecarProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One machine of a team in a test: a real sidecar on port 0 with a BATON_HOME of its own, joined to the team
 * database under its own machine name, and a clone of the team's repository. Sessions register and lock over HTTP
 * as agents' hooks do.
 */
final class TeamMember implements AutoCloseable {

    private static final Path HOOK = Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();

    record Reply(int status, JsonNode body) {
        boolean acquired() {
            return body.path("all_acquired").asBoolean();
        }

        JsonNode holder() {
            return body.path("results").get(0).path("holder");
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final Sidecar sidecar;
    private final SidecarProcess process;
    private final int port;
    private final String token;
    private final Path clone;
    private Path home;

    private TeamMember(Sidecar sidecar, SidecarProcess process, int port, String token, Path clone) {
        this.sidecar = sidecar;
        this.process = process;
        this.port = port;
        this.token = token;
        this.clone = clone;
    }

    private Map<String, String> env;

    /** A machine whose sidecar runs in a JVM of its own (started as {@code baton serve}), to kill or pause it. */
    static TeamMember joinAsProcess(Path dir, String url, String machine, Path clone, Map<String, String> extraSettings) {
        Map<String, String> env = new LinkedHashMap<>(extraSettings);
        env.put("BATON_TEAM_URL", url);
        env.put("BATON_TEAM_MACHINE", machine);
        return startProcess(dir.resolve(machine + "-home"), env, clone);
    }

    /** SIGKILLs this machine's sidecar process and starts another on the same home, as after a crash. */
    TeamMember killAndRestart() {
        process.kill();
        return startProcess(home, env, clone);
    }

    private static TeamMember startProcess(Path home, Map<String, String> env, Path clone) {
        try {
            java.nio.file.Files.createDirectories(home, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SidecarProcess process = SidecarProcess.start(home, env);
        TeamMember member = new TeamMember(null, process, process.port(), process.token(), clone);
        member.home = home;
        member.env = env;
        return member;
    }

    static TeamMember join(Path dir, String url, String machine, Path clone, Map<String, String> extraSettings)
            throws IOException {
        return join(dir, url, machine, clone, extraSettings, java.time.Clock.systemUTC());
    }

    /** A machine whose sidecar runs by {@code clock} (one whose clock is wrong, say). */
    static TeamMember join(Path dir, String url, String machine, Path clone, Map<String, String> extraSettings,
                           java.time.Clock clock) throws IOException {
        Map<String, String> env = new LinkedHashMap<>(extraSettings);
        env.put("BATON_TEAM_URL", url);
        env.put("BATON_TEAM_MACHINE", machine);
        BatonHome home = new BatonHome(dir.resolve(machine + "-home"));
        SidecarOptions options = SidecarOptions.defaults(home, 0).withClock(clock).withSweepEvery(Duration.ofHours(1))
                .inTeam(TeamSettings.fromEnvironment(env).orElseThrow());
        // The modules read the same settings (BATON_DEADLOCK_POLICY, …) as a sidecar started with them in its environment.
        Sidecar sidecar = Sidecar.start(options, baton -> SidecarAdapters.routes(baton,
                SidecarAdapters.Modules.install(baton, env)));
        TeamMember member = new TeamMember(sidecar, null, sidecar.port(), home.readToken().orElseThrow(), clone);
        member.home = home.dir();
        // A sidecar that could not reach the database at start (a loaded machine) joins on its next try: the tests
        // begin in the team, not on this machine's word.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(member::connected);
        return member;
    }

    /** A clone of {@code origin} at {@code dir/name} whose remote origin is spelled {@code originUrl}. */
    static Path cloneOf(dev.baton.git.TestRepo origin, String originUrl, Path dir, String name) throws IOException {
        Path clone = dir.resolve(name);
        origin.git("clone", "-q", origin.root().toString(), clone.toString());
        dev.baton.git.TestRepo.create(clone).git("remote", "set-url", "origin", originUrl);
        return clone.toRealPath();
    }

    /** Whether this machine's sidecar is in the team now. */
    boolean connected() {
        return get("/v1/team").body().path("team").path("connected").asBoolean();
    }

    /** The machine's BATON_HOME. */
    Path home() {
        return home;
    }

    /** The in-process sidecar (null for one in its own JVM). */
    Sidecar sidecar() {
        return sidecar;
    }

    /** The sidecar's own JVM (null for one in this JVM). */
    SidecarProcess process() {
        return process;
    }

    Path workingTree() {
        return clone;
    }

    String file(String relative) {
        return clone.resolve(relative).toString();
    }

    /** Registers a session of this test's JVM (always alive) working in the clone; returns its key. */
    String register(String session) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", session);
        body.put("agent", "claude-code");
        body.put("pid", ProcessHandle.current().pid());
        body.put("cwd", clone.toString());
        Reply reply = post("/v1/sessions", body, null);
        if (reply.status() != 201) {
            throw new IllegalStateException("registering " + session + " failed: " + reply.body());
        }
        return reply.body().path("key").asText();
    }

    Reply acquire(String session, String key, String... relative) {
        return post("/v1/locks/acquire", Map.of("session_id", session,
                "files", List.of(relative).stream().map(this::file).toList()), key);
    }

    Reply release(String session, String key, String... relative) {
        return post("/v1/locks/release", Map.of("session_id", session,
                "files", List.of(relative).stream().map(this::file).toList()), key);
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).GET(), null);
    }

    Reply post(String path, Object body, String key) {
        try {
            return send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body))), key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Reply delete(String path, String key) {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).DELETE(), key);
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    private Reply send(HttpRequest.Builder request, String key) {
        request.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60));
        if (key != null) {
            request.header(dev.baton.http.Callers.KEY_HEADER, key);
        }
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body = response.body().length == 0 ? Json.mapper().createObjectNode() : Json.mapper().readTree(response.body());
            return new Reply(response.statusCode(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What the real hook script printed for one call. */
    record HookRun(int exit, String out, String err) {
    }

    /** Claude Code's PreToolUse for an Edit of {@code file} in this clone, through the real hook script. */
    HookRun edit(String session, String file) throws IOException, InterruptedException {
        return hook(session, "PreToolUse", "claude-pretooluse-edit.json", file);
    }

    /** Claude Code's {@code event} (its payload {@code sample}) for {@code session}, through the real hook script. */
    HookRun hook(String session, String event, String sample, String file) throws IOException, InterruptedException {
        String payload;
        try (InputStream in = TeamMember.class.getResourceAsStream("/hook-samples/" + sample)) {
            payload = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01", session)
                    .replace("/home/dev/shop/src/main/java/shop/Cart.java", file == null ? "" : file(file))
                    .replace("/home/dev/shop", clone.toString());
        }
        Path out = Files.createTempFile(home.getParent(), "hook-out", ".json");
        Path err = Files.createTempFile(home.getParent(), "hook-err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(List.of(HOOK.toString(), "claude", event))
                .directory(clone.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        List.of("CLAUDE_FILE_LOCK", "BATON", "BATON_FAIL_OPEN", "BATON_BIN", "XDG_STATE_HOME")
                .forEach(builder.environment()::remove);
        builder.environment().put("BATON_HOME", home.toString());
        builder.environment().put("BATON_HOOK_TIMEOUT", "45");
        Process hook = builder.start();
        try (OutputStream stdin = hook.getOutputStream()) {
            stdin.write(payload.getBytes(StandardCharsets.UTF_8));
        }
        if (!hook.waitFor(90, TimeUnit.SECONDS)) {
            hook.destroyForcibly();
            throw new AssertionError("the hook did not finish");
        }
        try {
            return new HookRun(hook.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Closes each of {@code machines} that was started (a set-up may have stopped before the rest). */
    static void closeAll(TeamMember... machines) {
        for (TeamMember machine : machines) {
            if (machine != null) {
                machine.close();
            }
        }
    }

    @Override
    public void close() {
        if (sidecar != null) {
            sidecar.close();
        } else {
            process.close();
        }
    }
}
