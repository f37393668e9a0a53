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

/** {@code baton negotiate FILE --reason …}: asks the session holding FILE to hand it over. */
@Command(name = "negotiate", description = {
        "Ask the session holding FILE to hand it over; it is told on its next tool call.",
        "With --wait, exit 0 once the file is released and 1 if it was not; without, exit 0 once the request is recorded."})
final class NegotiateCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    @Mixin AgentOptions agent;
    @Parameters(paramLabel = "FILE") String file;
    @Option(names = "--reason", required = true, description = "Why you need it now; the holder decides on it.") String reason;
    @Option(names = "--urgent", description = "The holder has 5 minutes to answer instead of 10.") boolean urgent;
    @Option(names = "--wait", paramLabel = "SECONDS", description = "Wait up to SECONDS for the outcome (default 0).")
    int waitSeconds;

    @Override
    public Integer call() {
        if (waitSeconds < 0) {
            throw new CliException("--wait must be zero or more seconds");
        }
        AgentCaller caller = agent.resolve(client());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", caller.sessionId());
        body.put("file", file);
        body.put("cwd", LockCommands.cwd());
        body.put("reason", reason);
        body.put("urgency", urgent ? "urgent" : "normal");
        body.put("wait_seconds", waitSeconds);
        JsonNode reply = caller.client().post("/v1/negotiations", body, Duration.ofSeconds(waitSeconds + 30L));
        JsonNode negotiation = reply.path("negotiation");
        PrintWriter out = spec.commandLine().getOut();
        Output.print(out, reply, json, () -> out.println(negotiation.path("summary").asText()
                + (reply.path("created").asBoolean() ? "" : " (You had asked already; this is that request.)")));
        boolean released = "released".equals(negotiation.path("status").asText());
        return waitSeconds == 0 || released ? 0 : 1;
    }
}
