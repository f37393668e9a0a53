package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton restore FILE}: puts back the last version Baton kept of a file its holder edited, after another
 * session's command changed, replaced or removed it; {@code --supervisor} does it for the holder.
 */
@Command(name = "restore", description = {
        "Put back the last version Baton kept of FILE (the holder's, from its last edit or when it took the file).",
        "Run it from the holder's agent, or with --supervisor from your own terminal; the audit log records it."})
final class RestoreCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    @Mixin AgentOptions agent;
    @Parameters(paramLabel = "FILE") String file;
    @Option(names = "--supervisor", description = "Act as the supervisor, not as an agent session.") boolean supervisor;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> body = new LinkedHashMap<>();
        JsonNode reply;
        if (supervisor) {
            if (agent.session != null || agent.key != null) {
                throw new CliException("--supervisor acts for no session; leave out --session and --key");
            }
            body.put("file", file);
            body.put("cwd", LockCommands.cwd());
            reply = SidecarClient.connectAsSupervisor(home()).post("/v1/versions/restore", body, Duration.ofSeconds(10));
        } else {
            AgentCaller caller = agent.resolve(client());
            body.put("session_id", caller.sessionId());
            body.put("file", file);
            body.put("cwd", LockCommands.cwd());
            reply = caller.client().post("/v1/versions/restore", body, Duration.ofSeconds(10));
        }
        Output.print(out, reply, json, () -> out.println("restored " + Output.relative(reply.path("file").asText())
                + " to session " + reply.path("holder").asText() + "'s last version (" + reply.path("size").asLong()
                + " bytes, sha256 " + reply.path("version").asText().substring(0, 12) + "…)"
                + (reply.hasNonNull("changed_by") ? "; session " + reply.path("changed_by").asText()
                        + ", whose command changed it, is told" : "")));
        return 0;
    }
}
