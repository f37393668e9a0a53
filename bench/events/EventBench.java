import dev.baton.deadlock.CycleFinder;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.lock.AcquireRequest;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Event-stream and deadlock benchmark, run against an in-process sidecar on a temporary BATON_HOME:
 *   1. latency from an acquire's HTTP reply to its lock.acquired event at each WebSocket client
 *      (10,000 acquires, with 1 and with 10 clients);
 *   2. cost of one cycle search over 200 sessions and 1,000 wait edges, and of one wait-for change
 *      inside the sidecar (graph update, cycle search, event, SQLite commit) with 1,000 waits present.
 * Usage: java -cp sidecar/target/baton.jar bench/events/EventBench.java [runs] [events]
 */
public class EventBench {

    private static final Pattern FILE = Pattern.compile("\"kind\":\"lock.acquired\",\"data\":\\{\"lock\":\\{\"file\":\"([^\"]+)\"");

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        System.out.println("machine: " + machine());
        for (int clients : new int[] {1, 10}) {
            for (int run = 1; run <= runs; run++) {
                latencyRun(clients, events, run);
            }
        }
        for (int run = 1; run <= runs; run++) {
            cycleSearch(run);
        }
        for (int run = 1; run <= runs; run++) {
            edgeChangeInSidecar(run);
        }
    }

    // ---- 1. event latency

    private static void latencyRun(int clients, int events, int run) throws Exception {
        Path dir = Files.createTempDirectory("baton-bench-events");
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(new BatonHome(dir.resolve("home")), 0),
                SidecarAdapters::of)) {
            String token = sidecar.home().readToken().orElseThrow();
            String base = "http://127.0.0.1:" + sidecar.port();
            HttpClient http = HttpClient.newHttpClient();
            String key = Json.mapper().readTree(post(http, base, token, "", "/v1/sessions",
                    "{\"session_id\":\"bench\",\"agent\":\"api\"}")).path("key").asText();
            Path repo = Files.createDirectories(dir.resolve("repo")).toRealPath();

            List<Receiver> receivers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Receiver receiver = new Receiver(events);
                http.newWebSocketBuilder().header("Authorization", "Bearer " + token)
                        .buildAsync(URI.create("ws://127.0.0.1:" + sidecar.port() + "/v1/events"), receiver)
                        .get(10, TimeUnit.SECONDS);
                receiver.snapshot.await(10, TimeUnit.SECONDS);
                receivers.add(receiver);
            }
            int warmup = Math.min(1_000, events / 10);
            long[] sent = new long[events + warmup];
            long[] replied = new long[events + warmup];
            for (int i = 0; i < events + warmup; i++) {
                String body = "{\"session_id\":\"bench\",\"files\":[\"" + repo.resolve("F" + i + ".java") + "\"]}";
                sent[i] = System.nanoTime();
                post(http, base, token, key, "/v1/locks/acquire", body);
                replied[i] = System.nanoTime();
            }
            for (Receiver receiver : receivers) {
                if (!receiver.done.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("a client did not receive every event");
                }
            }
            List<Long> afterReply = new ArrayList<>();
            List<Long> afterRequest = new ArrayList<>();
            int beforeReply = 0;
            for (Receiver receiver : receivers) {
                for (int k = 0; k < receiver.count; k++) {
                    Matcher m = FILE.matcher(receiver.texts[k]);
                    if (!m.find()) {
                        continue;
                    }
                    String name = Path.of(m.group(1)).getFileName().toString();
                    int i = Integer.parseInt(name.substring(1, name.indexOf('.')));
                    if (i < warmup) {
                        continue;
                    }
                    long arrival = receiver.arrivals[k];
                    if (arrival < replied[i]) {
                        beforeReply++;
                    }
                    afterReply.add(Math.max(0, arrival - replied[i]));
                    afterRequest.add(arrival - sent[i]);
                }
            }
            System.out.printf("latency clients=%d run=%d samples=%d: reply→event p50 %.3f ms p99 %.3f ms max %.3f ms"
                            + " (%.0f%% arrived before the reply); request→event p50 %.3f ms p99 %.3f ms%n",
                    clients, run, afterReply.size(), ms(pct(afterReply, 50)), ms(pct(afterReply, 99)),
                    ms(pct(afterReply, 100)), 100.0 * beforeReply / afterReply.size(),
                    ms(pct(afterRequest, 50)), ms(pct(afterRequest, 99)));
        }
    }

    /** Keeps each frame's arrival time and text; parsing waits until the run is over. */
    private static final class Receiver implements WebSocket.Listener {
        final long[] arrivals;
        final String[] texts;
        final CountDownLatch snapshot = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final int expected;
        int count;
        private final StringBuilder partial = new StringBuilder();

        Receiver(int events) {
            expected = events + Math.min(1_000, events / 10);
            arrivals = new long[expected + 16];
            texts = new String[expected + 16];
        }

        @Override
        public void onOpen(WebSocket socket) {
            socket.request(Long.MAX_VALUE);
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (!last) {
                return null;
            }
            long now = System.nanoTime();
            String text = partial.toString();
            partial.setLength(0);
            if (text.startsWith("{\"type\":\"snapshot\"")) {
                snapshot.countDown();
            } else if (count < arrivals.length) {
                arrivals[count] = now;
                texts[count++] = text;
                if (count == expected) {
                    done.countDown();
                }
            }
            return null;
        }
    }

    // ---- 2. cycle detection

    /** The cycle search alone over 200 sessions and 1,000 edges, two shapes of graph. */
    private static void cycleSearch(int run) {
        for (String shape : new String[] {"queue", "dense"}) {
            Map<String, Map<String, SortedSet<String>>> graph = graph(shape, new Random(run));
            int found = CycleFinder.find(graph, 64).cycles().size();
            long[] nanos = new long[20_000];
            for (int i = 0; i < 5_000; i++) {
                CycleFinder.find(graph, 64);
            }
            for (int i = 0; i < nanos.length; i++) {
                long start = System.nanoTime();
                CycleFinder.find(graph, 64);
                nanos[i] = System.nanoTime() - start;
            }
            Arrays.sort(nanos);
            System.out.printf("cycle search run=%d shape=%s (200 sessions, %d edges, %d cycle(s) found): p50 %.1f µs p99 %.1f µs%n",
                    run, shape, edges(graph), found, nanos[nanos.length / 2] / 1e3, nanos[nanos.length * 99 / 100] / 1e3);
        }
    }

    /**
     * "queue": waits point from older to younger sessions, as when agents queue for each other's files,
     * plus one five-session ring pointing the other way (a few cycles). "dense": waits point anywhere,
     * a worst case with thousands of cycles, where the search stops at its limit of 64.
     */
    private static Map<String, Map<String, SortedSet<String>>> graph(String shape, Random random) {
        Map<String, Map<String, SortedSet<String>>> graph = new TreeMap<>();
        int edges = 0;
        while (edges < 1_000) {
            int waiter = random.nextInt(200);
            int holder = shape.equals("dense") ? random.nextInt(200) : waiter + 1 + random.nextInt(Math.max(1, 199 - waiter));
            if (holder == waiter || holder >= 200) {
                continue;
            }
            SortedSet<String> files = graph.computeIfAbsent(id(waiter), w -> new TreeMap<>())
                    .computeIfAbsent(id(holder), h -> new TreeSet<>());
            if (files.add("/repo/" + id(holder) + "/F" + files.size() + ".java")) {
                edges++;
            }
        }
        if (shape.equals("queue")) {
            for (int i = 0; i < 5; i++) {
                graph.computeIfAbsent(id(150 + (i + 1) % 5), w -> new TreeMap<>())
                        .computeIfAbsent(id(150 + i), h -> new TreeSet<>()).add("/repo/ring" + i + ".java");
            }
        }
        return graph;
    }

    private static int edges(Map<String, Map<String, SortedSet<String>>> graph) {
        return graph.values().stream().mapToInt(targets -> targets.values().stream().mapToInt(SortedSet::size).sum()).sum();
    }

    /**
     * One wait-for change inside the sidecar with 1,000 waits present (200 sessions holding 5 files each,
     * waits from older to younger sessions): a negotiation opens or closes, each in its own transaction
     * with the cycle search and the commit of its event.
     */
    private static void edgeChangeInSidecar(int run) throws Exception {
        Path dir = Files.createTempDirectory("baton-bench-deadlocks");
        SidecarAdapters.Modules[] modules = new SidecarAdapters.Modules[1];
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(new BatonHome(dir.resolve("home")), 0), baton -> {
            modules[0] = SidecarAdapters.Modules.install(baton, Map.of());
            return SidecarAdapters.routes(baton, modules[0]);
        })) {
            var baton = sidecar.baton();
            var deadlocks = modules[0].deadlocks();
            Path repo = Files.createDirectories(dir.resolve("repo")).toRealPath();
            for (int s = 0; s < 200; s++) {
                baton.sessions().register(new dev.baton.session.Registration(id(s), dev.baton.session.AgentKind.API,
                        null, null, null, null, null, null));
                List<String> files = new ArrayList<>();
                for (int f = 0; f < 5; f++) {
                    files.add(file(repo, s, f));
                }
                baton.locks().acquire(AcquireRequest.explicit(id(s), files, Duration.ZERO));
            }
            Random random = new Random(run);
            List<String[]> open = new ArrayList<>();
            Set<String> known = new HashSet<>();
            while (open.size() < 1_000) {
                String[] wait = randomWait(random, repo);
                if (known.add(wait[0] + wait[1])) {
                    baton.ledger().write(tx -> {
                        deadlocks.negotiationOpened(tx, wait[0], wait[1]);
                        return null;
                    });
                    open.add(wait);
                }
            }
            long[] nanos = new long[4_000];
            for (int i = 0; i < 1_000 + nanos.length; i++) {
                boolean opening = i % 2 == 1;
                String[] wait = opening ? randomWait(random, repo) : open.remove(random.nextInt(open.size()));
                if (opening ? !known.add(wait[0] + wait[1]) : !known.remove(wait[0] + wait[1])) {
                    i--;
                    continue;
                }
                long start = System.nanoTime();
                baton.ledger().write(tx -> {
                    if (opening) {
                        deadlocks.negotiationOpened(tx, wait[0], wait[1]);
                    } else {
                        deadlocks.negotiationClosed(tx, wait[0], wait[1], "withdrawn");
                    }
                    return null;
                });
                if (i >= 1_000) {
                    nanos[i - 1_000] = System.nanoTime() - start;
                }
                if (opening) {
                    open.add(wait);
                }
            }
            Arrays.sort(nanos);
            System.out.printf("wait-for change in the sidecar run=%d (200 sessions, %d waits): p50 %.1f µs p99 %.1f µs%n",
                    run, deadlocks.waits().size(), nanos[nanos.length / 2] / 1e3, nanos[nanos.length * 99 / 100] / 1e3);
        }
    }

    private static String[] randomWait(Random random, Path repo) {
        int waiter = random.nextInt(195);
        int holder = waiter + 1 + random.nextInt(199 - waiter);
        return new String[] {id(waiter), file(repo, holder, random.nextInt(5))};
    }

    private static String file(Path repo, int session, int index) {
        return repo.resolve(id(session) + "-F" + index + ".java").toString();
    }

    // ---- helpers

    private static String id(int session) {
        return String.format("s%03d", session);
    }

    /** Posts as the session whose key is given (an empty key for a call that acts for none); returns the reply. */
    private static String post(HttpClient http, String base, String token, String key, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (!key.isEmpty()) {
            request.header(Callers.KEY_HEADER, key);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private static long pct(List<Long> values, int percentile) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int index = Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static String machine() throws IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown CPU");
        long memory = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                .findFirst().map(l -> Long.parseLong(l.replaceAll("\\D", ""))).orElse(0L) / 1024 / 1024;
        return Runtime.getRuntime().availableProcessors() + " cores of " + cpu + ", " + memory + " GiB, Java "
                + System.getProperty("java.version") + ", " + System.getProperty("os.name") + " "
                + System.getProperty("os.version");
    }
}
