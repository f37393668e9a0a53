package dev.baton.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lock benchmark of docs/PERFORMANCE.md: a real sidecar process ({@code bin/baton serve}) driven
 * over HTTP keep-alive connections. Prints one markdown table row per measurement.
 * Usage: LockBench LAUNCHER [seconds-per-measurement [runs [clients...]]], LAUNCHER being bin/baton. Each
 * run starts a fresh sidecar; with several runs each figure is the median, with the range in brackets.
 * With client counts given, only the runs with no other locks held are made, with those counts.
 */
public final class LockBench {

    private static final int WARM_UP_SECONDS = 20;
    /** USER_HZ, the unit of /proc/PID/stat times: 100 on Linux for x86 and ARM. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;

    private LockBench() {
    }

    public static void main(String[] args) throws Exception {
        Path launcher = Path.of(args[0]);
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int[] counts = args.length > 3 ? Arrays.stream(args, 3, args.length).mapToInt(Integer::parseInt).toArray() : null;
        Figures figures = new Figures();
        for (int round = 0; round < runs; round++) {
            measure(launcher, seconds, counts, figures);
        }
        figures.print();
    }

    /** Every figure of every run, by row; printed as the median, with the range when there are several runs. */
    static final class Figures {
        private static final Pattern NUMBER = Pattern.compile("%[,.0-9]*f");
        private final Map<String, String> templates = new LinkedHashMap<>();
        private final Map<String, List<double[]>> runs = new LinkedHashMap<>();

        /** @param template the rest of the row, with one number format ({@code %.2f}) per figure */
        void add(String row, String template, double... figures) {
            templates.put(row, template);
            runs.computeIfAbsent(row, key -> new ArrayList<>()).add(figures);
        }

        void add(String scenario, int clients, Result result) {
            add("| " + scenario + " | " + clients + " |", " %,.0f | %.2f | %.2f | %.0f |", result.pairsPerSecond,
                    result.p50Micros / 1000, result.p99Micros / 1000, result.cpuMicros);
        }

        void print() {
            templates.forEach((row, template) -> {
                Matcher matcher = NUMBER.matcher(template);
                StringBuilder line = new StringBuilder(row);
                int column = 0;
                int from = 0;
                while (matcher.find()) {
                    line.append(template, from, matcher.start()).append(cell(matcher.group(), runs.get(row), column++));
                    from = matcher.end();
                }
                System.out.println(line.append(template.substring(from)));
            });
        }

        private static String cell(String format, List<double[]> values, int column) {
            double[] sorted = values.stream().mapToDouble(run -> run[column]).sorted().toArray();
            int n = sorted.length;
            double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            String shown = String.format(Locale.ROOT, format, median);
            return n == 1 ? shown : shown + " (" + String.format(Locale.ROOT, format, sorted[0]) + "–"
                    + String.format(Locale.ROOT, format, sorted[n - 1]) + ")";
        }
    }

    /** One run: a fresh sidecar, every scenario (or only the given client counts with no other locks held). */
    private static void measure(Path launcher, int seconds, int[] counts, Figures figures) throws Exception {
        Path home = Files.createTempDirectory("baton-bench");
        // Started the way users start it, so start-up includes the launcher and its JVM options.
        List<String> command = List.of(launcher.toString(), "serve", "--port", "0");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(home.resolve("out.log").toFile());
        builder.environment().put("BATON_HOME", home.toString());
        String extra = System.getenv("BENCH_SIDECAR_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            builder.environment().put("BATON_JAVA_OPTS", extra.trim());
        }
        long spawned = System.nanoTime();
        Process sidecar = builder.start();
        sidecarPid = sidecar.pid();
        try {
            int port = awaitPort(home);
            String token = Files.readString(home.resolve("token")).trim();
            long firstServed = awaitHealth(port);
            figures.add("| start-up to first served request |", " %.0f ms |", (firstServed - spawned) / 1e6);
            // A sidecar runs for hours: the figures are of the warmed-up JIT, not of its first seconds.
            run(port, token, 16, WARM_UP_SECONDS, "warm-up");
            Result pairs16 = null;
            for (int clients : counts != null ? counts : new int[] {1, 4, 16, 64}) {
                Result result = run(port, token, clients, seconds, "c" + clients);
                figures.add("no other locks held", clients, result);
                if (clients == 16) {
                    pairs16 = result;
                }
            }
            if (counts == null) {
                measureHeldLocks(port, token, seconds, figures);
                figures.add("| RSS of the sidecar with 100,000 locks held |", " %.0f MiB |", rssMiB(sidecar.pid()));
            }
            // The floor under the 16-client figures: the same clients asking the one endpoint that does nothing.
            Result health = run(port, token, 16, seconds, "health", true);
            figures.add("| GET /v1/health, 16 clients (no lock work: the HTTP stack's floor) |",
                    " %,.0f requests/s, p50 %.2f ms, p99 %.2f ms, sidecar CPU %.0f µs per request |",
                    health.pairsPerSecond, health.p50Micros / 1000, health.p99Micros / 1000, health.cpuMicros);
            if (pairs16 != null) {
                // Two requests a pair: the share of the empty endpoint's request rate that locking keeps.
                figures.add("| 16 clients' requests/s as a share of health's, same run |", " %.0f % |",
                        200 * pairs16.pairsPerSecond / health.pairsPerSecond);
            }
        } finally {
            sidecar.destroy();
            sidecar.waitFor();
        }
    }

    /** 1,000, 10,000 and 100,000 locks of another session held, and the 1- and 16-client runs again. */
    private static void measureHeldLocks(int port, String token, int seconds, Figures figures) throws Exception {
        int held = 0;
        for (int target : new int[] {1_000, 10_000, 100_000}) {
            held = preload(port, token, held, target);
            String scenario = String.format(Locale.ROOT, "%,d locks held", target);
            figures.add(scenario, 1, run(port, token, 1, seconds, "h1-" + target));
            figures.add(scenario, 16, run(port, token, 16, seconds, "h16-" + target));
        }
    }

    /** @param cpuMicros the sidecar's CPU time (user + system) per loop, from /proc/PID/stat */
    record Result(double pairsPerSecond, double p50Micros, double p99Micros, double cpuMicros) {
    }

    /** The process whose CPU time the runs measure. */
    private static long sidecarPid;

    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    }

    private static Result run(int port, String token, int clients, int seconds, String tag) throws Exception {
        return run(port, token, clients, seconds, tag, false);
    }

    /**
     * Each client owns a session and loops acquire+release of its own file; acquire latency is sampled.
     * With {@code healthOnly} each loop is one {@code GET /v1/health} instead, and the result counts requests.
     */
    private static Result run(int port, String token, int clients, int seconds, String tag, boolean healthOnly)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        long[] deadline = new long[1];
        List<Future<long[]>> futures = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            String session = tag + "-" + c;
            futures.add(pool.submit(() -> {
                try (RawHttpClient client = new RawHttpClient(port, token)) {
                    client.register(session);
                    String acquire = "{\"session_id\":\"" + session + "\",\"files\":[\"/bench/" + session + ".txt\"]}";
                    for (int i = 0; i < 200; i++) { // warm-up
                        client.send("POST", "/v1/locks/acquire", acquire);
                        client.send("POST", "/v1/locks/release", acquire);
                    }
                    ready.countDown();
                    go.await();
                    long[] samples = new long[1 << 20];
                    int n = 0;
                    while (System.nanoTime() < deadline[0] && n < samples.length) {
                        long t0 = System.nanoTime();
                        if (healthOnly) {
                            client.send("GET", "/v1/health", null);
                            samples[n++] = System.nanoTime() - t0;
                            continue;
                        }
                        if (client.send("POST", "/v1/locks/acquire", acquire) != 200) {
                            throw new IllegalStateException("acquire failed: " + client.lastBody);
                        }
                        samples[n++] = System.nanoTime() - t0;
                        client.send("POST", "/v1/locks/release", acquire);
                    }
                    return Arrays.copyOf(samples, n);
                }
            }));
        }
        ready.await();
        long ticksBefore = cpuTicks(sidecarPid);
        long start = System.nanoTime();
        deadline[0] = start + Duration.ofSeconds(seconds).toNanos();
        go.countDown();
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> future : futures) {
            all.add(future.get());
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long ticks = cpuTicks(sidecarPid) - ticksBefore;
        pool.shutdown();
        long[] merged = all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        double cpuMicros = ticks * 1e6 / CLOCK_TICKS_PER_SECOND / merged.length;
        return new Result(merged.length / elapsed, merged[merged.length / 2] / 1000.0,
                merged[(int) Math.min(merged.length - 1, Math.floor(merged.length * 0.99))] / 1000.0, cpuMicros);
    }

    private static int preload(int port, String token, int from, int to) throws IOException {
        try (RawHttpClient client = new RawHttpClient(port, token)) {
            String filler = "filler-" + to; // a session of its own per preload: a key is issued only to a new one
            client.register(filler);
            for (int start = from; start < to; start += 1000) {
                StringBuilder files = new StringBuilder();
                for (int i = start; i < Math.min(to, start + 1000); i++) {
                    files.append(i == start ? "" : ",").append("\"/held/dir-").append(i % 97).append("/f-").append(i).append('"');
                }
                int status = client.send("POST", "/v1/locks/acquire", "{\"session_id\":\"" + filler + "\",\"files\":[" + files + "]}");
                if (status != 200) {
                    throw new IllegalStateException("preload failed: " + client.lastBody);
                }
            }
        }
        return to;
    }

    private static int awaitPort(Path home) throws Exception {
        Path endpoint = home.resolve("endpoint");
        for (int i = 0; i < 6000; i++) {
            if (Files.exists(endpoint)) {
                String text = Files.readString(endpoint).trim();
                if (!text.isEmpty()) {
                    return Integer.parseInt(text.substring(text.indexOf(':') + 1));
                }
            }
            Thread.sleep(5); // polling a file the sidecar writes; bounded to 30 s
        }
        throw new IllegalStateException("the sidecar did not start; see " + home.resolve("out.log"));
    }

    private static long awaitHealth(int port) throws Exception {
        try (RawHttpClient client = new RawHttpClient(port, "")) {
            if (client.send("GET", "/v1/health", null) != 200) {
                throw new IllegalStateException("health failed");
            }
            return System.nanoTime();
        }
    }

    private static long rssMiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }
}
