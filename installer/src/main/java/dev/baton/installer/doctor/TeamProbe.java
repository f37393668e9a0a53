package dev.baton.installer.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.installer.config.JsonText;
import dev.baton.installer.layout.SidecarEndpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Checks team mode: whether the running sidecar shares its lock space as {@code BATON_TEAM_URL} here asks
 * (a sidecar started before the setting was made shares nothing), and whether its team database answers.
 */
public final class TeamProbe {

    private static final String SUBJECT = "team";

    private final Duration timeout;

    public TeamProbe(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * @param teamUrl  {@code BATON_TEAM_URL} as this environment sets it, null when unset
     * @param endpoint the running sidecar, empty when none runs
     */
    public Optional<Check> check(String teamUrl, Optional<SidecarEndpoint> endpoint, Optional<String> token) {
        boolean wanted = teamUrl != null && !teamUrl.isBlank();
        if (endpoint.isEmpty() || token.isEmpty()) {
            return wanted ? Optional.of(Check.ok(SUBJECT, "BATON_TEAM_URL is set; the sidecar joins the team when it starts"))
                    : Optional.empty();
        }
        JsonNode reply;
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint.get() + "/v1/team"))
                    .header("Authorization", "Bearer " + token.get()).timeout(timeout).GET().build();
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(timeout).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return wanted ? Optional.of(Check.problem(SUBJECT, "the sidecar on " + endpoint.get() + " answered HTTP "
                        + response.statusCode() + " to /v1/team: it predates team mode", "install this Baton again and"
                        + " restart the sidecar (baton stop; the next hook starts it)")) : Optional.empty();
            }
            reply = JsonText.MAPPER.readTree(response.body());
        } catch (IOException e) {
            return Optional.of(Check.problem(SUBJECT, "cannot ask " + endpoint.get() + " about its team: " + e.getMessage(),
                    "see the sidecar check above"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        if (!reply.path("enabled").asBoolean()) {
            return wanted ? Optional.of(Check.problem(SUBJECT, "BATON_TEAM_URL is set here, but the running sidecar"
                    + " started without it and shares nothing with the team", "restart it with the setting: `baton stop`"
                    + " (the next hook starts it from the agent's environment), or add BATON_TEAM_URL to the service's"
                    + " environment")) : Optional.empty();
        }
        JsonNode team = reply.path("team");
        String where = team.path("url").asText() + " as machine " + team.path("machine").asText();
        if (!team.path("connected").asBoolean()) {
            return Optional.of(Check.problem(SUBJECT, "the team database " + where + " does not answer since "
                    + team.path("unreachable_since").asText() + ": " + team.path("last_error").asText(),
                    "check that the database runs and this machine reaches it (the URL, sslmode, the password in"
                            + " PGPASSFILE); meanwhile files last known held elsewhere stay denied"
                            + (team.path("strict").asBoolean() ? " and nothing new is granted" : "")));
        }
        return Optional.of(Check.ok(SUBJECT, where + ", connected; " + team.path("machines").size()
                + " machine(s) in the team"));
    }
}
