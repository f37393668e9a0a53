package dev.baton.bench;

import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The shell-tool benchmark of docs/PERFORMANCE.md: what a Bash PreToolUse and PostToolUse pair costs at the
 * sidecar, on a small repository and on one of 50,000 files, against the pair for a tool Baton does not check.
 * The sidecar runs in-process with the production adapters on a temporary BATON_HOME; the hook payloads are posted
 * over HTTP as the hook script posts them. Usage: ShellBench [small-iterations [large-iterations [large-files]]].
 * Run it with BATON_SHELL_AFTER_CHECK=0 in the environment to measure the checks without the after-check.
 *
 * <p>Then the wrapper: a trivial command run as Claude Code runs it with Baton's prefix ({@code baton-shell
 * true}, a real process) against the same command without it ({@code bash -c true}), with no file held by another
 * session and with 5 and 100 held (made read-only for the command), alternating per run. With BATON_BENCH_BEFORE
 * naming a directory that holds an earlier build's hook scripts, that build's wrapper ({@code baton-shell true} there,
 * else {@code baton-hook --shell true} of builds before it) runs in the same rounds, for a ratio that the machine's
 * load does not move.
 */
public final class ShellBench {

    private ShellBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("wrapper")) {
            wrapperOnly(args.length > 1 ? Integer.parseInt(args[1]) : 100);
            return;
        }
        int smallIterations = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int largeIterations = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int largeFiles = args.length > 2 ? Integer.parseInt(args[2]) : 50_000;
        Path dir = Files.createTempDirectory("baton-shell-bench");
        Path homeDir = Files.createDirectories(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        BatonHome home = new BatonHome(homeDir);
        System.out.println("after-check: " + !"0".equals(System.getenv("BATON_SHELL_AFTER_CHECK")));
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of)) {
            Client client = new Client(home);
            Path small = repo(dir.resolve("small"), 20, 2);
            System.out.println("| repository | command | pairs | pair p50 ms | pair p90 ms | added p50 ms |");
            System.out.println("|---|---|---|---|---|---|");
            measure(client, small, "small (20 files, 2 dirty)", smallIterations);
            Path large = repo(dir.resolve("large"), largeFiles, 20);
            measure(client, large, String.format(Locale.ROOT, "large (%,d files, 20 dirty)", largeFiles), largeIterations);
            git(large, "config", "core.untrackedCache", "true");
            git(large, "update-index", "--untracked-cache");
            git(large, "status", "--untracked-files=all"); // fills the cache, as the user's own git status does
            measure(client, large, String.format(Locale.ROOT, "large, untracked cache on"), largeIterations);
            System.out.println();
            System.out.println("| wrapped command | files held by another session | runs | p50 ms | p90 ms | added p50 ms |");
            System.out.println("|---|---|---|---|---|---|");
            wrapper(home, small, dir, smallIterations);
        }
    }

    /** The wrapper's rows alone ({@code ShellBench wrapper [runs]}), on the small repository. */
    private static void wrapperOnly(int iterations) throws Exception {
        Path dir = Files.createTempDirectory("baton-shell-bench");
        Path homeDir = Files.createDirectories(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        BatonHome home = new BatonHome(homeDir);
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of)) {
            Path small = repo(dir.resolve("small"), 20, 2);
            System.out.println("| wrapped command | files held by another session | runs | p50 ms | p90 ms | added p50 ms |");
            System.out.println("|---|---|---|---|---|---|");
            wrapper(home, small, dir, iterations);
        }
    }

    /** The hook script of this checkout, whether the benchmark runs from the repository root or from the sidecar module. */
    private static final Path SCRIPT = Files.isRegularFile(Path.of("hook-scripts", "baton-hook"))
            ? Path.of("hook-scripts", "baton-hook").toAbsolutePath()
            : Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();

    /** The wrapper's cost around {@code true}, with 0, 5 and 100 files another agent process holds. */
    private static void wrapper(BatonHome home, Path repo, Path dir, int iterations) throws Exception {
        int held = 0;
        Process holder = null;
        try {
            for (int count : new int[] {0, 5, 100}) {
                if (count > held) {
                    if (holder != null) {
                        holder.destroyForcibly().waitFor();
                    }
                    holder = hold(home, repo, dir, count);
                    held = count;
                }
                String before = System.getenv("BATON_BENCH_BEFORE");
                double[] plain = new double[iterations];
                double[] wrapped = new double[iterations];
                double[] earlier = new double[iterations];
                for (int i = -Math.max(5, iterations / 10); i < iterations; i++) {
                    double p = run(home, repo, List.of("bash", "-c", "true"));
                    double w = run(home, repo, List.of(SCRIPT.resolveSibling("baton-shell").toString(), "true"));
                    double e = before == null ? 0 : run(home, repo, earlierWrapper(before));
                    if (i >= 0) {
                        plain[i] = p;
                        wrapped[i] = w;
                        earlier[i] = e;
                    }
                }
                Arrays.sort(plain);
                Arrays.sort(wrapped);
                Arrays.sort(earlier);
                double base = plain[iterations / 2];
                System.out.printf(Locale.ROOT, "| `bash -c true` | %d | %d | %.2f | %.2f | — |%n", count, iterations, base,
                        plain[(int) (iterations * 0.9)]);
                System.out.printf(Locale.ROOT, "| `baton-shell true` | %d | %d | %.2f | %.2f | %.2f |%n", count, iterations,
                        wrapped[iterations / 2], wrapped[(int) (iterations * 0.9)], wrapped[iterations / 2] - base);
                if (before != null) {
                    System.out.printf(Locale.ROOT, "| before: `%s` | %d | %d | %.2f | %.2f | %.2f |%n",
                        String.join(" ", earlierWrapper(before)).replace(before + "/", ""), count,
                            iterations, earlier[iterations / 2], earlier[(int) (iterations * 0.9)], earlier[iterations / 2] - base);
                }
            }
        } finally {
            if (holder != null) {
                holder.destroyForcibly().waitFor();
            }
        }
    }

    /** An earlier build's wrapper around {@code true}: its {@code baton-shell}, or its hook script's option. */
    private static List<String> earlierWrapper(String dir) {
        Path wrapper = Path.of(dir, "baton-shell");
        return Files.isExecutable(wrapper) ? List.of(wrapper.toString(), "true")
                : List.of(Path.of(dir, "baton-hook").toString(), "--shell", "true");
    }

    /**
     * An agent process of its own (a copy of bash under another name, outside the benchmark's process tree) whose
     * session takes {@code files} files through the real hook, then stays alive holding them.
     */
    private static Process hold(BatonHome home, Path repo, Path dir, int files) throws Exception {
        Path program = dir.resolve("agent-holder");
        Files.copy(Path.of("/bin/bash").toRealPath(), program, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        program.toFile().setExecutable(true);
        StringBuilder script = new StringBuilder();
        for (int i = 0; i < files; i++) {
            Path payload = dir.resolve("hold-" + i + ".json");
            Files.writeString(payload, "{\"session_id\":\"holder-" + files + "\",\"transcript_path\":\"/tmp/t\",\"cwd\":\"" + repo
                    + "\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\""
                    + repo.resolve("src/d0/F" + i + ".java") + "\",\"content\":\"x\"},\"tool_use_id\":\"toolu_h" + i + "\"}");
            script.append(SCRIPT).append(" claude PreToolUse < ").append(payload).append(" > /dev/null\n");
        }
        Files.createDirectories(repo.resolve("src/d0"));
        for (int i = 0; i < files; i++) {
            Path file = repo.resolve("src/d0/F" + i + ".java");
            if (!Files.exists(file)) {
                Files.writeString(file, "x\n");
            }
        }
        script.append("echo held; exec sleep 100000\n");
        ProcessBuilder builder = new ProcessBuilder(program.toString(), "-c", script.toString()).directory(repo.toFile());
        builder.environment().put("BATON_HOME", home.dir().toString());
        builder.environment().put("BATON_HOOK_TIMEOUT", "60");
        Process process = builder.redirectErrorStream(true).start();
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream())).readLine();
        if (!"held".equals(line)) {
            throw new IOException("the holder did not take its files: " + line);
        }
        return process;
    }

    private static double run(BatonHome home, Path repo, List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(repo.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("BATON_HOME", home.dir().toString());
        long started = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(command + " failed");
        }
        return (System.nanoTime() - started) / 1e6;
    }

    private static void measure(Client client, Path repo, String label, int iterations) throws Exception {
        String session = "bench-" + UUID.randomUUID();
        List<String[]> commands = List.of(
                new String[] {"Grep", null, "a tool Baton does not check (baseline)"},
                new String[] {"Bash", "git status --short && ls src | head", "read-only: `git status --short && ls src | head`"},
                new String[] {"Bash", "sed -i 's/a/b/' src/d0/F1.java", "named write: `sed -i 's/a/b/' src/d0/F1.java`"},
                new String[] {"Bash", "make build", "cannot be analysed: `make build`"},
                new String[] {"Bash", "git add -A", "repository-wide git: `git add -A`"});
        double baseline = 0;
        for (String[] command : commands) {
            for (int i = 0; i < Math.max(5, iterations / 10); i++) {
                pair(client, repo, session, command[0], command[1]); // warm-up
            }
            double[] millis = new double[iterations];
            for (int i = 0; i < iterations; i++) {
                long started = System.nanoTime();
                pair(client, repo, session, command[0], command[1]);
                millis[i] = (System.nanoTime() - started) / 1e6;
            }
            Arrays.sort(millis);
            double p50 = millis[iterations / 2];
            double p90 = millis[(int) (iterations * 0.9)];
            if (command[1] == null) {
                baseline = p50;
            }
            System.out.printf(Locale.ROOT, "| %s | %s | %d | %.2f | %.2f | %s |%n", label, command[2], iterations, p50, p90,
                    command[1] == null ? "—" : String.format(Locale.ROOT, "%.2f", p50 - baseline));
        }
        // the next measurement's session must find the files free
        client.post("SessionEnd", "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/t\",\"cwd\":\"" + repo
                + "\",\"hook_event_name\":\"SessionEnd\",\"reason\":\"other\"}");
    }

    private static void pair(Client client, Path repo, String session, String tool, String command) throws Exception {
        String id = "toolu_" + UUID.randomUUID().toString().substring(0, 8);
        String input = command == null ? "{\"pattern\":\"x\"}" : "{\"command\":\"" + command.replace("\"", "\\\"") + "\"}";
        for (String event : List.of("PreToolUse", "PostToolUse")) {
            String body = "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/t\",\"cwd\":\"" + repo
                    + "\",\"hook_event_name\":\"" + event + "\",\"tool_name\":\"" + tool + "\",\"tool_input\":" + input
                    + ",\"tool_use_id\":\"" + id + "\"}";
            client.post(event, body);
        }
    }

    /**
     * A committed repository of {@code files} files in directories of 100 ({@code src/dN/FI.java}), {@code dirty} of
     * them modified. Also the turn-end benchmark's.
     */
    static Path repo(Path root, int files, int dirty) throws Exception {
        Files.createDirectories(root);
        git(root, "init", "-q", "-b", "main");
        for (int i = 0; i < files; i++) {
            Path file = root.resolve("src/d" + (i / 100) + "/F" + i + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "class F" + i + " { int a = " + i + "; }\n");
        }
        git(root, "add", "-A");
        git(root, "-c", "user.email=b@example.com", "-c", "user.name=bench", "commit", "-q", "-m", "files");
        for (int i = 0; i < dirty; i++) {
            Files.writeString(root.resolve("src/d" + (i / 100) + "/F" + i + ".java"), "changed " + i + "\n");
        }
        return root.toRealPath();
    }

    static void git(Path root, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!git.waitFor(10, TimeUnit.MINUTES) || git.exitValue() != 0) {
            throw new IOException("git " + String.join(" ", args) + " failed");
        }
    }

    /** Posts hook payloads as the hook script does, with this process standing in for the agent. */
    static final class Client {
        private final HttpClient http = HttpClient.newHttpClient();
        private final String endpoint;
        private final String token;

        Client(BatonHome home) throws IOException {
            this.endpoint = home.readEndpoint().orElseThrow();
            this.token = home.readToken().orElseThrow();
        }

        void post(String event, String body) throws IOException, InterruptedException {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint + "/v1/hooks?agent=claude&event="
                            + event + "&ppid=" + ProcessHandle.current().pid()))
                    .header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                    .timeout(Duration.ofSeconds(30))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException(event + " answered " + response.statusCode() + ": " + response.body());
            }
        }
    }
}
