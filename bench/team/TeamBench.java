import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.team.TeamSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Team mode against one machine alone, in the same run: (1) the real hook's PreToolUse for a new lock and for a
 * re-entrant edit, against a team sidecar and a local one, alternating round by round; (2) the statements a sidecar
 * sends per edit and per lease interval, with 0 and 1,000 files held; (3) acquire/release pairs per second over HTTP
 * with 1, 2 and 4 sidecars of one team, against as many local sidecars; (4) how long a deadlock through two machines
 * takes to be reported on both, against one inside one machine. Prints medians and ratios.
 */
public class TeamBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path HOOK = Path.of("hook-scripts", "baton-hook").toAbsolutePath();

    record Member(Sidecar sidecar, String token, Path tree) {
        String base() {
            return "http://127.0.0.1:" + sidecar.port();
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path dir = Files.createTempDirectory("baton-team-bench");
        try (EmbeddedPostgres database = EmbeddedPostgres.builder().start()) {
            String url = "postgresql://postgres@127.0.0.1:" + database.getPort() + "/postgres";
            Path origin = repository(dir.resolve("origin"), rounds * calls + 1);
            System.out.printf("team benchmark: %d rounds of %d hook calls per case, %d s per pairs run, PostgreSQL %s on"
                    + " 127.0.0.1%n", rounds, calls, seconds, "14 (embedded)");
            hookCalls(dir, url, origin, rounds, calls);
            statements(dir, url, origin);
            pairs(dir, url, origin, seconds);
            // A database of its own: the sidecars above left claims behind until their leases run out.
            try (java.sql.Connection admin = database.getPostgresDatabase().getConnection();
                 java.sql.Statement create = admin.createStatement()) {
                create.execute("CREATE DATABASE bench_deadlocks");
            }
            deadlocks(dir, "postgresql://postgres@127.0.0.1:" + database.getPort() + "/bench_deadlocks", origin, rounds * 2);
        }
    }

    // --- (1) the hook ---------------------------------------------------------------------------------------------

    private static void hookCalls(Path dir, String url, Path origin, int rounds, int calls) throws Exception {
        Member local = start(dir, "local", null, origin, Map.of());
        Member team = start(dir, "team", url, origin, Map.of());
        List<Long> localNew = new ArrayList<>();
        List<Long> teamNew = new ArrayList<>();
        List<Long> localAgain = new ArrayList<>();
        List<Long> teamAgain = new ArrayList<>();
        long claimsBefore = statement(team, "claims");
        int file = 0;
        for (int warm = 0; warm < 20; warm++) {
            hook(local, "bench-local", "src/F0.java");
            hook(team, "bench-team", "src/F0.java");
        }
        long claimsAfterReentrant = statement(team, "claims");
        for (int round = 0; round < rounds; round++) {
            for (int call = 0; call < calls; call++) {
                file++;
                localNew.add(hook(local, "bench-local", "src/F" + file + ".java"));
                teamNew.add(hook(team, "bench-team", "src/F" + file + ".java"));
                localAgain.add(hook(local, "bench-local", "src/F0.java"));
                teamAgain.add(hook(team, "bench-team", "src/F0.java"));
            }
        }
        long claimsAfter = statement(team, "claims");
        System.out.println();
        System.out.println("(1) the real hook, PreToolUse Edit, whole process (median ms, team / local)");
        System.out.printf("  new lock:       local %.2f  team %.2f  ratio %.2f%n", ms(median(localNew)), ms(median(teamNew)),
                (double) median(teamNew) / median(localNew));
        System.out.printf("  re-entrant:     local %.2f  team %.2f  ratio %.2f%n", ms(median(localAgain)),
                ms(median(teamAgain)), (double) median(teamAgain) / median(localAgain));
        System.out.printf("  claims sent: %d for 20 warm-up calls on one file (1 new lock, 19 re-entrant), %d for %d new"
                + " locks and %d re-entrant edits%n", claimsAfterReentrant - claimsBefore, claimsAfter - claimsAfterReentrant,
                rounds * calls, rounds * calls);
        local.sidecar().close();
        team.sidecar().close();
    }

    private static long hook(Member member, String session, String file) throws Exception {
        String payload = JSON.writeValueAsString(Map.of("session_id", session, "cwd", member.tree().toString(),
                "hook_event_name", "PreToolUse", "tool_name", "Edit", "tool_input",
                Map.of("file_path", member.tree().resolve(file).toString(), "old_string", "a", "new_string", "b")));
        ProcessBuilder builder = new ProcessBuilder(HOOK.toString(), "claude", "PreToolUse")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("BATON_HOME", member.sidecar().home().dir().toString());
        long started = System.nanoTime();
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(payload.getBytes(StandardCharsets.UTF_8));
        }
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("the hook failed for " + file);
        }
        return System.nanoTime() - started;
    }

    // --- (2) statements per interval ------------------------------------------------------------------------------

    private static void statements(Path dir, String url, Path origin) throws Exception {
        Member member = start(dir, "renewing", url, origin, Map.of("BATON_TEAM_TTL", "3"));
        String key = register(member, "holder");
        Map<String, Long> idle = window(member, Duration.ofSeconds(6));
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            files.add(member.tree().resolve("held/H" + i + ".java").toString());
        }
        for (int i = 0; i < files.size(); i += 100) {
            post(member, "/v1/locks/acquire", Map.of("session_id", "holder", "files", files.subList(i, i + 100)), key);
        }
        Map<String, Long> loaded = window(member, Duration.ofSeconds(6));
        System.out.println();
        System.out.println("(2) statements sent in 6 s of idling, lease TTL 3 s (renewal every 1 s)");
        System.out.printf("  0 files held:     %s%n", idle);
        System.out.printf("  1,000 files held: %s%n", loaded);
        member.sidecar().close();
    }

    private static Map<String, Long> window(Member member, Duration length) throws Exception {
        Map<String, Long> before = statements(member);
        Thread.sleep(length.toMillis()); // a measuring window, not a wait for something to happen
        Map<String, Long> after = statements(member);
        Map<String, Long> delta = new LinkedHashMap<>();
        after.forEach((kind, count) -> delta.put(kind, count - before.getOrDefault(kind, 0L)));
        return delta;
    }

    // --- (3) pairs per second -------------------------------------------------------------------------------------

    private static void pairs(Path dir, String url, Path origin, int seconds) throws Exception {
        System.out.println();
        System.out.printf("(3) acquire+release pairs per second over HTTP, 2 clients per sidecar, %d s%n", seconds);
        for (int sidecars : new int[] {1, 2, 4}) {
            double local = pairsPerSecond(dir, null, origin, sidecars, seconds);
            double team = pairsPerSecond(dir, url, origin, sidecars, seconds);
            System.out.printf("  %d sidecar(s): local %.0f/s  team %.0f/s  ratio %.2f%n", sidecars, local, team, team / local);
        }
    }

    private static double pairsPerSecond(Path dir, String url, Path origin, int sidecars, int seconds) throws Exception {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < sidecars; i++) {
            members.add(start(dir, (url == null ? "local-" : "team-") + sidecars + "-" + i, url, origin, Map.of()));
        }
        AtomicLong done = new AtomicLong();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        CountDownLatch finished = new CountDownLatch(sidecars * 2);
        for (int i = 0; i < sidecars; i++) {
            Member member = members.get(i);
            for (int client = 0; client < 2; client++) {
                String session = "pairs-" + i + "-" + client;
                String key = register(member, session);
                int prefix = i * 2 + client;
                Thread thread = new Thread(() -> {
                    try {
                        for (int n = 0; System.nanoTime() < deadline; n++) {
                            String file = member.tree().resolve("pairs/P" + prefix + "-" + (n % 50) + ".java").toString();
                            post(member, "/v1/locks/acquire", Map.of("session_id", session, "files", List.of(file)), key);
                            post(member, "/v1/locks/release", Map.of("session_id", session, "files", List.of(file)), key);
                            done.incrementAndGet();
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                    } finally {
                        finished.countDown();
                    }
                });
                thread.start();
            }
        }
        finished.await();
        members.forEach(member -> member.sidecar().close());
        return done.get() / (double) seconds;
    }

    // --- (4) a deadlock through two machines ------------------------------------------------------------------------

    private static void deadlocks(Path dir, String url, Path origin, int rounds) throws Exception {
        Member one = start(dir, "deadlock-one", url, origin, Map.of());
        Member two = start(dir, "deadlock-two", url, origin, Map.of());
        List<Long> across = new ArrayList<>();
        List<Long> within = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            across.add(cycle(one, two, "x" + round));
            within.add(cycle(one, one, "w" + round));
        }
        System.out.println();
        System.out.printf("(4) a deadlock of two sessions reported on every sidecar involved, from the request that"
                + " closes it, %d rounds%n", rounds);
        System.out.printf("  across two sidecars: median %.1f ms   within one: median %.1f ms%n",
                ms(median(across)), ms(median(within)));
        one.sidecar().close();
        two.sidecar().close();
    }

    /** Two sessions each holding a file and asking for the other's; nanoseconds until both sidecars report the cycle. */
    private static long cycle(Member first, Member second, String tag) throws Exception {
        String a = tag + "-a";
        String b = tag + "-b";
        String keyA = register(first, a);
        String keyB = register(second, b);
        String fileA = "deadlock/" + tag + "A.java";
        String fileB = "deadlock/" + tag + "B.java";
        post(first, "/v1/locks/acquire", Map.of("session_id", a, "files", List.of(first.tree().resolve(fileA).toString())), keyA);
        post(second, "/v1/locks/acquire", Map.of("session_id", b, "files", List.of(second.tree().resolve(fileB).toString())), keyB);
        until(() -> first == second || (known(first) && known(second)));
        post(first, "/v1/negotiations", Map.of("session_id", a, "file", first.tree().resolve(fileB).toString(), "reason", "bench"), keyA);
        long start = System.nanoTime();
        post(second, "/v1/negotiations", Map.of("session_id", b, "file", second.tree().resolve(fileA).toString(), "reason", "bench"), keyB);
        until(() -> deadlocked(first) && deadlocked(second));
        long took = System.nanoTime() - start;
        send(first, HttpRequest.newBuilder(URI.create(first.base() + "/v1/sessions/" + a)).DELETE(), keyA);
        send(second, HttpRequest.newBuilder(URI.create(second.base() + "/v1/sessions/" + b)).DELETE(), keyB);
        until(() -> !deadlocked(first) && !deadlocked(second) && (first == second || !(known(first) || known(second))));
        // the next round starts from a team with nothing held and no deadlock
        return took;
    }

    private static boolean known(Member member) throws Exception {
        return get(member, "/v1/team").path("team").path("known_elsewhere").asInt() > 0;
    }

    private static boolean deadlocked(Member member) throws Exception {
        return get(member, "/v1/deadlocks").path("deadlocks").size() > 0;
    }

    interface Check {
        boolean holds() throws Exception;
    }

    /** Polls every millisecond, for at most 30 s. */
    private static void until(Check check) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within 30 s: " + check);
            }
            Thread.sleep(1); // a poll's pause, bounded by the deadline above
        }
    }

    // --- parts -----------------------------------------------------------------------------------------------------

    private static Member start(Path dir, String name, String url, Path origin, Map<String, String> settings)
            throws Exception {
        Path clone = dir.resolve(name + "-clone");
        git(dir, "clone", "-q", origin.toString(), clone.toString());
        git(clone, "remote", "set-url", "origin", "https://example.com/bench/shop.git");
        Path home = Files.createDirectories(dir.resolve(name + "-home"));
        Files.setPosixFilePermissions(home, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        SidecarOptions options = SidecarOptions.defaults(new BatonHome(home), 0);
        if (url != null) {
            Map<String, String> env = new LinkedHashMap<>(settings);
            env.put("BATON_TEAM_URL", url);
            env.put("BATON_TEAM_MACHINE", name);
            options = options.inTeam(TeamSettings.fromEnvironment(env).orElseThrow());
        }
        Sidecar sidecar = Sidecar.start(options, SidecarAdapters::of);
        return new Member(sidecar, new BatonHome(home).readToken().orElseThrow(), clone.toRealPath());
    }

    private static Path repository(Path dir, int files) throws Exception {
        Files.createDirectories(dir.resolve("src"));
        for (int i = 0; i < files; i++) {
            Files.writeString(dir.resolve("src/F" + i + ".java"), "class F" + i + " {}\n");
        }
        git(dir, "init", "-q", "-b", "main");
        git(dir, "add", "-A");
        git(dir, "-c", "user.email=bench@example.com", "-c", "user.name=Bench", "commit", "-q", "-m", "files");
        return dir;
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
            throw new IllegalStateException("git " + String.join(" ", args) + " failed");
        }
    }

    private static String register(Member member, String session) throws Exception {
        return post(member, "/v1/sessions", Map.of("session_id", session, "agent", "claude-code",
                "pid", ProcessHandle.current().pid(), "cwd", member.tree().toString()), null).path("key").asText();
    }

    private static long statement(Member member, String kind) throws Exception {
        return statements(member).get(kind);
    }

    private static Map<String, Long> statements(Member member) throws Exception {
        JsonNode counts = get(member, "/v1/team").path("team").path("statements");
        Map<String, Long> map = new LinkedHashMap<>();
        counts.fields().forEachRemaining(entry -> map.put(entry.getKey(), entry.getValue().asLong()));
        return map;
    }

    private static JsonNode get(Member member, String path) throws Exception {
        return send(member, HttpRequest.newBuilder(URI.create(member.base() + path)).GET(), null);
    }

    private static JsonNode post(Member member, String path, Object body, String key) throws Exception {
        return send(member, HttpRequest.newBuilder(URI.create(member.base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), key);
    }

    private static JsonNode send(Member member, HttpRequest.Builder request, String key) throws IOException, InterruptedException {
        request.header("Authorization", "Bearer " + member.token());
        if (key != null) {
            request.header("X-Baton-Key", key);
        }
        HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8));
        }
        return JSON.readTree(response.body());
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
