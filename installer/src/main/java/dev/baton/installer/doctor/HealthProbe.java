package dev.baton.installer.doctor;

import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.SidecarEndpoint;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/** Asks a sidecar for {@code GET /v1/health} with a bounded wait, and says in words what came back. */
public final class HealthProbe {

    /** The outcome: healthy or not, with a phrase for the doctor's report. */
    public record Result(boolean healthy, String description) {
    }

    private final Duration timeout;

    public HealthProbe(Duration timeout) {
        this.timeout = timeout;
    }

    public Result probe(SidecarEndpoint endpoint) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
        HttpRequest request = HttpRequest.newBuilder(endpoint.healthUri()).timeout(timeout).GET().build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return new Result(false, endpoint + " answered HTTP " + response.statusCode() + " to /v1/health");
            }
            try {
                JsonText.MAPPER.readTree(response.body());
            } catch (IOException e) {
                return new Result(false, endpoint + " answered /v1/health without JSON; another program may hold the port");
            }
            return new Result(true, "answers on " + endpoint);
        } catch (HttpTimeoutException e) {
            return new Result(false, "no answer from " + endpoint + " within " + timeout.toMillis() + " ms");
        } catch (ConnectException e) {
            return new Result(false, "nothing listens on " + endpoint);
        } catch (IOException e) {
            return new Result(false, "cannot reach " + endpoint + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, "interrupted while asking " + endpoint);
        }
    }
}
