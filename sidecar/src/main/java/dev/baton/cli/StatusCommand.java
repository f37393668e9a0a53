package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code baton status}: is the sidecar up, and what does it hold. */
@Command(name = "status", description = "Show the sidecar's state: sessions, locks, store.")
final class StatusCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        SidecarClient client = client();
        JsonNode status = client.get("/v1/status");
        PrintWriter out = spec.commandLine().getOut();
        Output.print(out, status, json, () -> {
            out.printf("Baton %s, pid %s, started %s%n", status.path("version").asText(), status.path("pid").asText(),
                    Output.ago(status.path("started_at")));
            out.printf("store: %s%n", status.path("store").asText());
            JsonNode team = client.get("/v1/team");
            if (team.path("enabled").asBoolean()) {
                JsonNode view = team.path("team");
                out.printf("team: %s as machine %s, %s (baton team status)%n", view.path("url").asText(),
                        view.path("machine").asText(), view.path("connected").asBoolean() ? "connected"
                                : "NOT REACHABLE since " + view.path("unreachable_since").asText());
            }
            out.printf("%d session(s), %d lock(s), %d named lock(s); heartbeat TTL %d s%n", status.path("sessions").asInt(),
                    status.path("locks").asInt(), status.path("named_locks").asInt(), status.path("heartbeat_ttl_seconds").asInt());
            Table sessions = new Table("AGENT", "SESSION", "PID", "ALIVE", "LOCKS", "LAST HEARD", "CWD");
            for (JsonNode session : client.get("/v1/sessions").path("sessions")) {
                sessions.row(session.path("agent").asText(), session.path("id").asText(), session.path("pid").asText("-"),
                        session.path("alive").asText(), session.path("locks").asInt(), Output.ago(session.path("last_heartbeat")),
                        session.path("cwd").asText("-"));
            }
            if (!sessions.isEmpty()) {
                sessions.print(out);
            }
        });
        return 0;
    }
}
