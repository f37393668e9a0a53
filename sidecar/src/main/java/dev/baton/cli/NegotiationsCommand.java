package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton negotiations}: the requests this session made or must answer; {@code --supervisor}, or a terminal that
 * belongs to no agent, shows everyone's.
 */
@Command(name = "negotiations", description = "List open requests for files that this session made or must answer (from a terminal of no agent: everyone's).")
final class NegotiationsCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    @Mixin AgentOptions agent;
    @Option(names = "--all", description = "Include resolved ones (kept for a day).") boolean all;
    @Option(names = "--supervisor", description = "Every session's requests, not only this session's.") boolean supervisor;

    @Override
    public Integer call() {
        String scope = "status=" + (all ? "all" : "open");
        JsonNode reply;
        boolean everyone = supervisor || agent.session == null && agent.key == null
                && CallerSession.agentAncestor(client()).isEmpty(); // a person's own terminal: the supervisor's view
        if (everyone) {
            reply = client().get("/v1/negotiations?" + scope);
        } else {
            AgentCaller caller = agent.resolve(client());
            reply = caller.client().get("/v1/negotiations?" + scope + "&session_id=" + LockCommands.encode(caller.sessionId()));
        }
        PrintWriter out = spec.commandLine().getOut();
        Output.print(out, reply, json, () -> {
            if (everyone && !supervisor) {
                out.println("every session's requests (this terminal belongs to no agent; --session ID shows one session's):");
            }
            if (reply.path("negotiations").isEmpty()) {
                out.println(all ? "no requests" : "no open requests");
            } else {
                reply.path("negotiations").forEach(n -> {
                    out.printf("%s  %s  %s -> %s%n    %s%n", n.path("status").asText(),
                            Output.relative(n.path("file").asText()), n.path("requester").asText(), n.path("holder").asText(),
                            n.path("summary").asText());
                    if (everyone && "timeout-eligible".equals(n.path("status").asText()) && !n.hasNonNull("holder_machine")) {
                        out.println("    as the supervisor: `baton force-release " + Output.relative(n.path("file").asText())
                                + " --supervisor` frees it now (the holder's uncommitted changes stay in the file)");
                    }
                });
            }
        });
        return 0;
    }
}
