package dev.baton.hook;

import dev.baton.Baton;
import dev.baton.git.TestRepo;
import dev.baton.lock.BranchRule;
import dev.baton.home.BatonHome;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A real sidecar on port 0 in a temporary BATON_HOME, a real git repository standing in for the samples'
 * {@code /home/dev/shop}, and the real hook script run as an agent runs it: payload on stdin, AGENT and EVENT
 * as arguments, BATON_HOME in the environment.
 */
final class HookHarness implements AutoCloseable {

    static final Path SCRIPT = Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();
    /** Baton's MCP server over stdio, beside the hook script. */
    static final Path MCP_SCRIPT = SCRIPT.resolveSibling("baton-mcp");
    static final String SAMPLE_CWD = "/home/dev/shop";
    static final String CLAUDE_SESSION = "3f2a9c1e-7b4d-4e0a-9d2f-1c8b5e6a7f01";
    static final String COPILOT_SESSION = "c0p1l0t-5e55-4a1b-8c2d-0e9f8a7b6c5d";

    /** The files the samples edit, committed so that turn-end checks have a clean tree to compare with. */
    static final String[] SHOP_FILES = {
            "README.md", "src/main/java/shop/Cart.java", "src/main/java/shop/Order.java",
            "src/main/java/shop/Legacy.java", "src/main/java/shop/Old.java", "analysis/sales.ipynb", "src/A.java"};

    /** The project directory of the payloads captured from the real CLIs ({@code hook-samples/captured}). */
    static final String CAPTURED_CWD = "/home/dev/project";

    /**
     * The budget the script gets (BATON_HOOK_TIMEOUT) unless a test sets its own: far above what a call takes on an
     * idle machine, so a loaded build machine never turns an allow into a time-out deny; the script's default (6 s)
     * is a product setting, not something a test may rely on.
     */
    static final String HOOK_BUDGET_SECONDS = "45";
    /** How much longer than its budget the script may run before the harness calls it hung. */
    private static final Duration SCRIPT_SLACK = Duration.ofSeconds(30);

    private final Path dir;
    private final BatonHome home;
    private final TestRepo repo;
    private Sidecar sidecar;

    private HookHarness(Path dir, BatonHome home, TestRepo repo) {
        this.dir = dir;
        this.home = home;
        this.repo = repo;
    }

    /** A harness whose sidecar is running. */
    static HookHarness start(Path dir) throws IOException {
        return start(dir, SidecarAdapters::of);
    }

    /** A harness whose sidecar mounts the given adapters (production's are {@link SidecarAdapters#of}). */
    static HookHarness start(Path dir, Function<Baton, List<Consumer<RoutesConfig>>> adapters) throws IOException {
        HookHarness harness = withoutSidecar(dir);
        harness.sidecar = Sidecar.start(SidecarOptions.defaults(harness.home, 0), adapters);
        return harness;
    }

    /** A harness whose sidecar applies {@code rule} to other branches' copies (as BATON_BRANCHES sets it). */
    static HookHarness startWithBranches(Path dir, BranchRule rule) throws IOException {
        HookHarness harness = withoutSidecar(dir);
        harness.sidecar = Sidecar.start(SidecarOptions.defaults(harness.home, 0).withBranches(rule), SidecarAdapters::of);
        return harness;
    }

    /** A harness with a home directory but no sidecar serving it. */
    static HookHarness withoutSidecar(Path dir) throws IOException {
        Path homeDir = dir.resolve("baton-home");
        Files.createDirectories(homeDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        return new HookHarness(dir, new BatonHome(homeDir), TestRepo.create(dir.resolve("shop"), SHOP_FILES));
    }

    Baton baton() {
        return sidecar.baton();
    }

    /** Stops the sidecar and starts another on the same home, as after a crash: it remembers only what it stored. */
    void restartSidecar() throws IOException {
        sidecar.close();
        sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of);
    }

    BatonHome home() {
        return home;
    }

    TestRepo repo() {
        return repo;
    }

    Path dir() {
        return dir;
    }

    /** A sample payload as it is, with the samples' project directory moved to the test repository. */
    String sample(String name) throws IOException {
        try (InputStream in = HookHarness.class.getResourceAsStream("/hook-samples/" + name)) {
            if (in == null) {
                throw new IOException("no sample " + name + " in src/test/resources/hook-samples");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace(SAMPLE_CWD, repo.root().toString());
        }
    }

    /** A payload captured from a real CLI, as it is, with its project directory moved to the test repository. */
    String captured(String name) throws IOException {
        return sample("captured/" + name).replace(CAPTURED_CWD, repo.root().toString());
    }

    ScriptRun run(String agent, String event, String payload) throws IOException {
        return run(agent, event, payload, Map.of());
    }

    ScriptRun run(String agent, String event, String payload, Map<String, String> env) throws IOException {
        return run(agent, event, payload.getBytes(StandardCharsets.UTF_8), env);
    }

    ScriptRun run(String agent, String event, byte[] payload, Map<String, String> env) throws IOException {
        return run(List.of(SCRIPT.toString(), agent, event), payload, env);
    }

    /** Baton's MCP server ({@code baton-mcp}) given {@code messages} on stdin, run until it exits at their end. */
    ScriptRun runMcp(String messages, Map<String, String> env) throws IOException {
        return run(List.of(MCP_SCRIPT.toString()), messages.getBytes(StandardCharsets.UTF_8), env);
    }

    private ScriptRun run(List<String> command, byte[] payload, Map<String, String> env) throws IOException {
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        Map<String, String> environment = builder.environment();
        scriptEnvironment(environment, env);
        // A test that sets no start budget gets its call budget for starts too, never the script's default.
        environment.putIfAbsent("BATON_HOOK_START_TIMEOUT", environment.get("BATON_HOOK_TIMEOUT"));
        long budget = Math.max(Long.parseLong(environment.get("BATON_HOOK_TIMEOUT")),
                Long.parseLong(environment.get("BATON_HOOK_START_TIMEOUT")));
        Duration limit = Duration.ofSeconds(budget).plus(SCRIPT_SLACK);
        long started = System.nanoTime();
        Process script = builder.start();
        try (OutputStream stdin = script.getOutputStream()) {
            stdin.write(payload);
        } catch (IOException e) {
            // the script may exit without reading its input (Baton switched off); that is its right
        }
        try {
            if (!script.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                script.destroyForcibly();
                throw new AssertionError("the hook script did not finish within " + limit);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the hook script", e);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        return new ScriptRun(script.exitValue(), Files.readString(out), Files.readString(err), elapsed);
    }

    /** A baton command that starts this build's sidecar on any free port, as the installed launcher would. */
    Path startingWrapper() throws IOException {
        Path wrapper = dir.resolve("baton");
        Files.writeString(wrapper, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -cp '" + System.getProperty("java.class.path") + "' dev.baton.cli.BatonCommand \"$@\" --port 0\n");
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        return wrapper;
    }

    /**
     * The environment the script runs with, from this process's: none of the switches and budgets the machine's
     * own agents may have set, this harness's home and budget, then {@code env}.
     */
    void scriptEnvironment(Map<String, String> environment, Map<String, String> env) {
        List.of("CLAUDE_FILE_LOCK", "BATON", "BATON_FAIL_OPEN", "BATON_BIN", "BATON_HOOK_TIMEOUT",
                "BATON_HOOK_START_TIMEOUT", "XDG_STATE_HOME", "CLAUDECODE", "COPILOT_HOME").forEach(environment::remove);
        environment.put("BATON_HOME", home.dir().toString());
        environment.put("BATON_HOOK_TIMEOUT", HOOK_BUDGET_SECONDS);
        environment.putAll(env);
    }

    /** Stops a sidecar the script started as a process of its own in this harness's home, if one runs. */
    void stopSidecarTheScriptStarted() throws Exception {
        Path pidFile = home.pidFile();
        if (Files.exists(pidFile)) {
            Optional<ProcessHandle> sidecar = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim()));
            if (sidecar.isPresent() && sidecar.get().pid() != ProcessHandle.current().pid()) {
                sidecar.get().destroy();
                sidecar.get().onExit().get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Posts a payload to the hook endpoint directly, with the sidecar's token. */
    HttpResponse<String> post(String query, byte[] body) throws IOException {
        String endpoint = home.readEndpoint().orElseThrow();
        String token = home.readToken().orElseThrow();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint + "/v1/hooks?" + query))
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .timeout(Duration.ofSeconds(30))
                .build();
        try {
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The session holding {@code file} (a path under the test repository), if any. */
    Optional<String> holderOf(String relativeFile) {
        return lockOf(relativeFile).map(FileLock::sessionId);
    }

    Optional<FileLock> lockOf(String relativeFile) {
        String file = repo.path(relativeFile).toString();
        return baton().ledger().read(world -> world.find(LockRows.FILES, file));
    }

    int lockCount() {
        return baton().ledger().read(world -> world.count(LockRows.FILES));
    }

    List<String> filesHeldBy(String sessionId) {
        return baton().ledger().read(world -> world.keysIn(LockRows.FILES, sessionId).stream()
                .map(file -> repo.root().relativize(Path.of(file)).toString())
                .toList());
    }

    /** Replaces the token file the script reads, as if another sidecar's token were lying around. */
    static void overwriteToken(BatonHome home, String token) throws IOException {
        home.writeAtomically(home.tokenFile(), token + "\n");
    }

    static Map<String, String> env(String... keysAndValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            env.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return env;
    }

    @Override
    public void close() {
        if (sidecar != null) {
            sidecar.close();
        }
    }
}
