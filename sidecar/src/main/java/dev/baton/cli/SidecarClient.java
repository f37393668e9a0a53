package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Json;
import dev.baton.http.LoopbackPeer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The CLI's view of the sidecar: finds it through BATON_HOME's endpoint and token files. */
final class SidecarClient {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String base;
    private final String token;
    private final Map<String, String> headers;

    private SidecarClient(String base, String token) {
        this(base, token, Map.of());
    }

    private SidecarClient(String base, String token, Map<String, String> headers) {
        this.base = base;
        this.token = token;
        this.headers = headers;
    }

    /** The same client, sending these headers too (the proof of the session it acts for). */
    SidecarClient withHeaders(Map<String, String> extra) {
        return new SidecarClient(base, token, Map.copyOf(extra));
    }

    static SidecarClient connect(BatonHome home) {
        return connect(home, false);
    }

    /**
     * A client that sends the supervisor's token rather than the agents'. Refused inside an agent's process tree:
     * the supervisor is the person, and an agent running {@code baton force-release FILE --supervisor} in its shell is not.
     */
    static SidecarClient connectAsSupervisor(BatonHome home) {
        SidecarClient agentsClient = connect(home, false);
        CallerSession.agentAncestor(agentsClient).ifPresent(session -> {
            throw new CliException("--supervisor is refused here: this command runs inside the process tree of agent"
                    + " session " + session + "; the supervisor's actions are for a person, from a terminal of their own"
                    + " (or the dashboard)");
        });
        return connect(home, true);
    }

    private static SidecarClient connect(BatonHome home, boolean supervisor) {
        try {
            String endpoint = verifiedEndpoint(home);
            String token = (supervisor ? home.readSupervisorToken() : home.readToken()).orElseThrow(() -> new CliException(
                    "the token file " + (supervisor ? home.supervisorTokenFile() : home.tokenFile())
                            + " is missing; start the sidecar with `baton serve`"));
            return new SidecarClient("http://" + endpoint, token);
        } catch (IOException e) {
            throw new CliException("cannot read " + home.dir() + ": " + e.getMessage());
        }
    }

    /**
     * {@code host:port} of this home's sidecar, checked before any token is read to be sent there: the home is private
     * to the user, and the listener is the sidecar of {@code sidecar.pid} ({@link #requireOurs}).
     */
    static String verifiedEndpoint(BatonHome home) throws IOException {
        String notRunning = "no sidecar is running for " + home.dir() + " (no endpoint file); start it with `baton serve`";
        if (!Files.isDirectory(home.dir())) {
            throw new CliException(notRunning);
        }
        try {
            home.requirePrivate();
        } catch (IOException e) {
            throw new CliException(e.getMessage());
        }
        String endpoint = home.readEndpoint().orElseThrow(() -> new CliException(notRunning));
        requireOurs(home);
        return endpoint;
    }

    /**
     * The token goes only to this BATON_HOME's sidecar: the process in {@code sidecar.pid} is alive, is this user's,
     * and holds the listening socket of the endpoint. After a crash the endpoint file may remain while another
     * process (another user's, even) has its port; that is "not running", not a sidecar to send the token to.
     */
    private static void requireOurs(BatonHome home) throws IOException {
        String notRunning = "no sidecar is running for " + home.dir() + " (its endpoint file is left from one that stopped";
        java.util.OptionalLong pid = home.readPid();
        Optional<Integer> port = home.readEndpointPort();
        if (pid.isEmpty() || port.isEmpty() || ProcessHandle.of(pid.getAsLong()).isEmpty()) {
            throw new CliException(notRunning + "); start it with `baton serve`");
        }
        Path proc = Path.of("/proc", Long.toString(pid.getAsLong()));
        if (Files.exists(proc) && !Files.getOwner(proc).getName().equals(System.getProperty("user.name"))) {
            throw new CliException(notRunning + ", and pid " + pid.getAsLong() + " is another user's); start it with `baton serve`");
        }
        if (!LoopbackPeer.listensOn(pid.getAsLong(), port.get())) {
            throw new CliException(notRunning + ", and port " + port.get() + " is not the sidecar's); start it with `baton serve`");
        }
    }

    JsonNode get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), Duration.ofSeconds(10));
    }

    JsonNode post(String path, Object body, Duration timeout) {
        try {
            byte[] bytes = Json.mapper().writeValueAsBytes(body);
            return send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)), timeout);
        } catch (IOException e) {
            throw new CliException("cannot encode the request: " + e.getMessage());
        }
    }

    JsonNode delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE(), Duration.ofSeconds(10));
    }

    private JsonNode send(HttpRequest.Builder request, Duration timeout) {
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = http.send(request.header("Authorization", "Bearer " + token)
                    .timeout(timeout).build(), HttpResponse.BodyHandlers.ofByteArray());
            JsonNode body = response.body().length == 0 ? Json.mapper().createObjectNode()
                    : Json.mapper().readTree(response.body());
            if (response.statusCode() >= 400) {
                JsonNode error = body.path("error");
                throw new CliException(error.path("message").asText("the sidecar answered " + response.statusCode()),
                        error.path("code").asText("HTTP_" + response.statusCode()));
            }
            return body;
        } catch (ConnectException e) {
            throw new CliException("the sidecar at " + base + " is not answering; start it with `baton serve`");
        } catch (IOException e) {
            throw new CliException("talking to the sidecar at " + base + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted");
        }
    }
}
