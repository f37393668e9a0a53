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
 * {@code baton force-release FILE}: the requester of a timed-out negotiation takes FILE from its
 * holder; {@code --supervisor} frees it on the supervising person's authority, with no negotiation.
 */
@Command(name = "force-release", description = {
        "Free FILE from its holder, as the requester of a timed-out negotiation or with --supervisor.",
        "The supervisor acts as the person watching the agents; the audit log records who did it."})
final class ForceReleaseCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    @Mixin AgentOptions agent;
    @Parameters(paramLabel = "FILE") String file;
    @Option(names = "--supervisor", description = "Act as the supervisor, not as an agent session.") boolean supervisor;
    @Option(names = "--actor", paramLabel = "NAME", description = "With --supervisor: who you are, for the audit log (default: $USER).")
    String actor;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (supervisor) {
            if (agent.session != null || agent.key != null) {
                throw new CliException("--supervisor acts for no session; leave out --session and --key");
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("file", file);
            body.put("cwd", LockCommands.cwd());
            body.put("actor", actor != null ? actor : env().getOrDefault("USER", "unknown"));
            JsonNode reply = SidecarClient.connectAsSupervisor(home()).post("/v1/locks/force-release", body, Duration.ofSeconds(10));
            Output.print(out, reply, json, () -> {
                if (reply.path("released").asBoolean()) {
                    out.println("released " + Output.relative(reply.path("file").asText()) + " (it was held by session "
                            + reply.path("previous_holder").asText() + ")");
                    if (reply.path("uncommitted").asBoolean()) {
                        out.println("note: the file still carries that session's uncommitted changes; the next holder"
                                + " starts from them (see them with `git diff -- " + Output.relative(reply.path("file").asText())
                                + "`)");
                    }
                } else {
                    out.println(Output.relative(reply.path("file").asText()) + " was not held");
                }
            });
            return 0;
        }
        AgentCaller caller = agent.resolve(client());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", caller.sessionId());
        body.put("file", file);
        body.put("cwd", LockCommands.cwd());
        JsonNode reply = caller.client().post("/v1/negotiations/force-release", body, Duration.ofSeconds(10));
        Output.print(out, reply, json, () -> out.println(reply.path("negotiation").path("summary").asText()));
        return 0;
    }
}
