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

/** {@code baton respond ID release|defer --eta MIN --reason …}: the holder's answer to a request for its file. */
@Command(name = "respond", description = {
        "Answer a request for a file you hold: release it now, or defer it with an estimate and a reason.",
        "'release' frees the file; 'defer --eta MIN --reason …' keeps it up to MIN (at most 60) more minutes."})
final class RespondCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    @Mixin AgentOptions agent;
    @Parameters(index = "0", paramLabel = "ID", description = "The request's id, such as n-k3x9qa.") String id;
    @Parameters(index = "1", paramLabel = "ANSWER", description = "release or defer.") String answer;
    @Option(names = "--eta", paramLabel = "MINUTES", description = "With defer: minutes until you release it (1-60).")
    Integer etaMinutes;
    @Option(names = "--reason", description = "Why (required with defer).") String reason;

    @Override
    public Integer call() {
        AgentCaller caller = agent.resolve(client());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", caller.sessionId());
        body.put("answer", answer);
        if (etaMinutes != null) {
            body.put("eta_minutes", etaMinutes);
        }
        if (reason != null) {
            body.put("reason", reason);
        }
        JsonNode reply = caller.client().post("/v1/negotiations/" + LockCommands.encode(id) + "/respond", body,
                Duration.ofSeconds(10));
        PrintWriter out = spec.commandLine().getOut();
        Output.print(out, reply, json, () -> out.println(reply.path("negotiation").path("summary").asText()));
        return 0;
    }
}
