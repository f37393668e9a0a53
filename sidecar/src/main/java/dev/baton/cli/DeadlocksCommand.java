package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code baton deadlocks}: the open cycles, their files, and the session asked to give way. */
@Command(name = "deadlocks", description = "List open deadlocks: each cycle of waiting sessions, its files and its victim.")
final class DeadlocksCommand extends SidecarCommands implements Callable<Integer> {

    @Spec CommandSpec spec;
    /** The environment to find the sidecar in; tests set it, otherwise the process's own. */
    Map<String, String> environment;

    @Override
    Map<String, String> env() {
        return environment != null ? environment : super.env();
    }

    @Override
    public Integer call() {
        JsonNode reply = client().get("/v1/deadlocks");
        PrintWriter out = spec.commandLine().getOut();
        Output.print(out, reply, json, () -> {
            if (reply.path("deadlocks").isEmpty()) {
                out.println("no deadlocks");
            }
            for (JsonNode deadlock : reply.path("deadlocks")) {
                out.printf("%s since %s: %s%n", deadlock.path("id").asText(), deadlock.path("detected_at").asText(),
                        EventLine.cycle(deadlock.path("sessions")));
                out.printf("  files: %s%n", EventLine.files(deadlock.path("files")));
                out.printf("  victim: %s (the youngest session; asked to release its files in the cycle)%n",
                        deadlock.path("victim").asText());
            }
        });
        return 0;
    }
}
