package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code baton team status}: the team this sidecar shares its lock space with (BATON_TEAM_URL). */
@Command(name = "team", description = "Show the team of sidecars that share one lock space through PostgreSQL.",
        subcommands = {TeamCommands.Status.class})
final class TeamCommands implements Runnable {

    @Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "status", description = "The connection, every machine of the team with its lease, and their sessions.")
    static final class Status extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            JsonNode reply = client().get("/v1/team");
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> print(out, reply));
            return reply.path("enabled").asBoolean() && reply.path("team").path("connected").asBoolean() ? 0 : 1;
        }

        private static void print(PrintWriter out, JsonNode reply) {
            if (!reply.path("enabled").asBoolean()) {
                out.println("no team: this sidecar's locks are this machine's alone (set BATON_TEAM_URL to a PostgreSQL"
                        + " URL and restart it to share them)");
                return;
            }
            JsonNode team = reply.path("team");
            out.printf("team %s, %s%n", team.path("url").asText(), team.path("connected").asBoolean() ? "connected"
                    : "NOT REACHABLE since " + team.path("unreachable_since").asText() + ": " + team.path("last_error").asText());
            out.printf("this machine: %s (host %s); lease TTL %d s; locks cover %s; %s%n", team.path("machine").asText(),
                    team.path("host").asText(), team.path("ttl_seconds").asInt(),
                    team.path("scope").asText().equals("branch") ? "one branch" : "the whole repository (every branch)",
                    team.path("strict").asBoolean() ? "strict (no new lock while the database is unreachable)"
                            : "keeps working while the database is unreachable");
            out.printf("  %d file(s) claimed here, %d waiting for the database, %d known held by other machines%n",
                    team.path("claimed").asInt(), team.path("unsynced").asInt(), team.path("known_elsewhere").asInt());
            if (team.hasNonNull("machines_error")) {
                out.println("machines: cannot list them: " + team.path("machines_error").asText());
                return;
            }
            out.println("machines:");
            for (JsonNode machine : team.path("machines")) {
                out.printf("  %-24s %-20s %s, %d session(s), %d lock(s)%n", machine.path("machine").asText(),
                        machine.path("host").asText(), machine.path("lease_valid").asBoolean()
                                ? "lease until " + machine.path("lease_until").asText()
                                : "LEASE EXPIRED at " + machine.path("lease_until").asText(),
                        machine.path("sessions").asInt(), machine.path("locks").asInt());
                for (JsonNode session : team.path("sessions")) {
                    if (session.path("machine").asText().equals(machine.path("machine").asText())) {
                        out.printf("      %-12s %s%s  %d lock(s)%s%n", session.path("agent").asText("?"),
                                session.path("session").asText(),
                                session.hasNonNull("name") ? " \"" + session.path("name").asText() + "\"" : "",
                                session.path("locks").asInt(),
                                session.hasNonNull("plan") ? "  plan: " + session.path("plan").asText() : "");
                    }
                }
            }
        }
    }
}
