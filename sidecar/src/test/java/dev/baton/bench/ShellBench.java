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
 */
public final class ShellBench {

    private ShellBench() {
    }

    public static void main(String[] args) throws Exception {
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
        }
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

    /** A committed repository of {@code files} files in directories of 100, {@code dirty} of them modified. */
    private static Path repo(Path root, int files, int dirty) throws Exception {
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

    private static void git(Path root, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!git.waitFor(10, TimeUnit.MINUTES) || git.exitValue() != 0) {
            throw new IOException("git " + String.join(" ", args) + " failed");
        }
    }

    /** Posts hook payloads as the hook script does, with this process standing in for the agent. */
    private static final class Client {
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
