package dev.baton.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One client of the crash harness, in a process of its own as an agent would be. For each round named on
 * standard input it takes and releases the repository's files until the sidecar dies under it. It works in
 * {@link #LANES} lanes at once, as an agent runs tool calls in parallel, so one session's requests overlap,
 * now and then on one file. It reports every request on standard output, one tab-separated line each, for
 * the harness to hold the sidecar to:
 * <pre>
 *   ack     LANE OPERATION FILE ANSWER SENT ANSWERED SENT_NS ANSWERED_NS   the sidecar answered (acquired, refused or released)
 *   doubt   LANE OPERATION FILE SENT FAILED SENT_NS REASON                 no answer: it may or may not have been carried out
 *   end                                                                    the round is over for this client
 * </pre>
 * SENT and ANSWERED are UTC times of day for people; the _NS figures are this process's monotonic clock, for
 * ordering one session's requests. An {@code api} client takes files through {@code POST /v1/locks/acquire};
 * a {@code hook} client through the real hook script with a Claude Code PreToolUse payload, the script a child
 * of this process as it is of the agent. Both release through the API.
 */
public final class CrashClient {

    /** Requests one session has in flight at once: parallel tool calls. */
    static final int LANES = 2;
    private static final long ORIGIN = System.nanoTime();

    private final String session;
    private final boolean viaHook;
    private final Path repo;
    private final int files;
    private final Path home;
    private final Path script;
    private final String editTemplate;
    private final PrintStream out;
    /** How this client proves it acts for its session: the key an API session was issued, or (hook) this process. */
    private final Map<String, String> proof = new ConcurrentHashMap<>();
    private final AtomicInteger acquisitions = new AtomicInteger();

    private CrashClient(String[] args, PrintStream out) throws IOException {
        this.session = args[0];
        this.viaHook = args[1].equals("hook");
        this.repo = Path.of(args[2]);
        this.files = Integer.parseInt(args[3]);
        this.home = Path.of(args[4]);
        this.script = Path.of(args[5]);
        this.editTemplate = viaHook ? Files.readString(Path.of(args[6])) : null;
        this.out = out;
        // A hook session's agent process is this one (the hook script is its child): its own connections prove it.
    }

    /** Arguments: SESSION api|hook REPO FILES BATON_HOME HOOK_SCRIPT EDIT_PAYLOAD_TEMPLATE. */
    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        CrashClient client = new CrashClient(args, out);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] round = line.split(" "); // PORT TOKEN SEED
            client.round(Integer.parseInt(round[0]), round[1], Long.parseLong(round[2]));
            out.println("end");
        }
    }

    private void round(int port, String token, long seed) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        if (!viaHook) {
            String sentAt = now();
            long sent = nanos();
            try {
                JsonNode registered = post(http, port, token, "/v1/sessions", Map.of("session_id", session, "agent", "api"));
                if (registered.hasNonNull("key")) { // issued once, when the first round created the session
                    proof.put(Callers.KEY_HEADER, registered.path("key").asText());
                }
            } catch (IOException | InterruptedException e) {
                doubt(0, "register", "-", sentAt, sent, e);
                return;
            }
        }
        List<Thread> lanes = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            int number = lane;
            Random random = new Random(seed + lane);
            Thread thread = new Thread(() -> lane(http, port, token, number, random), "lane-" + lane);
            thread.start();
            lanes.add(thread);
        }
        for (Thread lane : lanes) {
            try {
                lane.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Takes and releases files until a request gets no answer (the sidecar was killed under it). */
    private void lane(HttpClient http, int port, String token, int lane, Random random) {
        String operation = "-";
        String file = "-";
        String sentAt = now();
        long sent = nanos();
        try {
            while (true) {
                file = repo + "/file-" + random.nextInt(files);
                // The hook client's session exists once a hook call has registered it.
                boolean release = random.nextBoolean() && !(viaHook && acquisitions.get() == 0);
                operation = release ? "release" : viaHook ? "hook-edit" : "acquire";
                sentAt = now();
                sent = nanos();
                String answer;
                if (release) {
                    post(http, port, token, "/v1/locks/release", Map.of("session_id", session, "files", List.of(file)));
                    answer = "released";
                } else {
                    boolean acquired = viaHook ? acquireThroughHook(file)
                            : post(http, port, token, "/v1/locks/acquire", Map.of("session_id", session, "files", List.of(file)))
                                    .path("all_acquired").asBoolean();
                    answer = acquired ? "acquired" : "refused";
                    if (acquired) {
                        acquisitions.incrementAndGet();
                    }
                }
                long answered = nanos();
                out.println(String.join("\t", "ack", String.valueOf(lane), operation, file, answer, sentAt, now(),
                        String.valueOf(sent), String.valueOf(answered)));
            }
        } catch (IOException | InterruptedException e) {
            // The sidecar was killed under this request: it stays in doubt until the restarted sidecar says.
            doubt(lane, operation, file, sentAt, sent, e);
        }
    }

    private void doubt(int lane, String operation, String file, String sentAt, long sent, Exception e) {
        out.println(String.join("\t", "doubt", String.valueOf(lane), operation, file, sentAt, now(), String.valueOf(sent),
                String.valueOf(e).replace('\n', ' ')));
    }

    /** Nanoseconds since this process started: a monotonic clock its lanes share, never negative. */
    private static long nanos() {
        return System.nanoTime() - ORIGIN;
    }

    /**
     * One PreToolUse through the real script: silent exit 0 is an acknowledged acquire, a deny is an
     * acknowledged refusal; anything else (the sidecar died under the call) leaves the file in doubt.
     */
    private boolean acquireThroughHook(String file) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(script.toString(), "claude", "PreToolUse");
        builder.environment().put("BATON_HOME", home.toString());
        builder.environment().put("BATON_BIN", "/nonexistent/baton"); // never auto-start a second sidecar here
        builder.environment().put("BATON_HOOK_TIMEOUT", "5");
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process hook = builder.start();
        try (var stdin = hook.getOutputStream()) {
            stdin.write(editTemplate.replace("/home/dev/shop/src/main/java/shop/Cart.java", file).getBytes(StandardCharsets.UTF_8));
        }
        String printed = new String(hook.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!hook.waitFor(30, TimeUnit.SECONDS)) {
            hook.destroyForcibly();
            throw new IOException("the hook script hung");
        }
        if (hook.exitValue() != 0) {
            throw new IOException("the hook failed closed (sidecar gone): exit " + hook.exitValue());
        }
        if (printed.isBlank()) {
            return true;
        }
        if (printed.contains("\"permissionDecision\":\"deny\"")) {
            return false;
        }
        throw new IOException("unexpected hook output: " + printed);
    }

    private JsonNode post(HttpClient http, int port, String token, String path, Object body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body)));
        proof.forEach(request::header);
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200 && response.statusCode() != 201) {
            throw new IOException("unexpected status " + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8));
        }
        return Json.mapper().readTree(response.body());
    }

    /** Wall-clock time of day in UTC, as the audit history's instants read. */
    static String now() {
        return LocalTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
