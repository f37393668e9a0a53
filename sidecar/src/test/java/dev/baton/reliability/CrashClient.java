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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One client of the crash harness, in a process of its own as an agent would be. For each round named on
 * standard input it takes and releases the repository's files until the sidecar dies under it, and reports
 * every request on standard output, one tab-separated line each, for the harness to hold the sidecar to:
 * <pre>
 *   ack     OPERATION FILE ANSWER SENT ANSWERED    the sidecar answered (acquired, refused or released)
 *   doubt   OPERATION FILE SENT FAILED REASON      no answer: the request may or may not have been carried out
 *   end                                            the round is over for this client
 * </pre>
 * An {@code api} client takes files through {@code POST /v1/locks/acquire}; a {@code hook} client through the
 * real hook script with a Claude Code PreToolUse payload, the script a child of this process as it is of the
 * agent. Both release through the API.
 */
public final class CrashClient {

    private final String session;
    private final boolean viaHook;
    private final Path repo;
    private final int files;
    private final Path home;
    private final Path script;
    private final String editTemplate;
    private final PrintStream out;
    /** How this client proves it acts for its session: the key an API session was issued, or (hook) this process. */
    private final Map<String, String> proof = new HashMap<>();
    private int acquisitions;

    private CrashClient(String[] args, PrintStream out) throws IOException {
        this.session = args[0];
        this.viaHook = args[1].equals("hook");
        this.repo = Path.of(args[2]);
        this.files = Integer.parseInt(args[3]);
        this.home = Path.of(args[4]);
        this.script = Path.of(args[5]);
        this.editTemplate = viaHook ? Files.readString(Path.of(args[6])) : null;
        this.out = out;
        if (viaHook) {
            // The hook session's agent process is this one: the hook script is its child.
            proof.put(Callers.CALLER_PID_HEADER, Long.toString(ProcessHandle.current().pid()));
        }
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
        Random random = new Random(seed);
        String operation = "register";
        String file = "-";
        String sent = now();
        try {
            if (!viaHook) {
                JsonNode registered = post(http, port, token, "/v1/sessions", Map.of("session_id", session, "agent", "api"));
                if (registered.hasNonNull("key")) { // issued once, when the first round created the session
                    proof.put(Callers.KEY_HEADER, registered.path("key").asText());
                }
            }
            while (true) {
                file = repo + "/file-" + random.nextInt(files);
                // The hook client's session exists once its first hook call registered it.
                boolean release = random.nextBoolean() && !(viaHook && acquisitions == 0);
                operation = release ? "release" : viaHook ? "hook-edit" : "acquire";
                sent = now();
                String answer;
                if (release) {
                    post(http, port, token, "/v1/locks/release", Map.of("session_id", session, "files", List.of(file)));
                    answer = "released";
                } else {
                    boolean acquired = viaHook ? acquireThroughHook(file)
                            : post(http, port, token, "/v1/locks/acquire", Map.of("session_id", session, "files", List.of(file)))
                                    .path("all_acquired").asBoolean();
                    answer = acquired ? "acquired" : "refused";
                    acquisitions += acquired ? 1 : 0;
                }
                out.println(String.join("\t", "ack", operation, file, answer, sent, now()));
            }
        } catch (IOException e) {
            // The sidecar was killed under this request: it stays in doubt until the restarted sidecar says.
            out.println(String.join("\t", "doubt", operation, file, sent, now(), String.valueOf(e).replace('\n', ' ')));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println(String.join("\t", "doubt", operation, file, sent, now(), "interrupted"));
        }
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
