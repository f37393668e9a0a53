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

/** {@code baton plan set|show|list}: what each session says it is working on. */
@Command(name = "plan", description = "Publish this session's plan, or read the plans of others.",
        subcommands = {PlanCommands.Publish.class, PlanCommands.Show.class, PlanCommands.ListAll.class})
final class PlanCommands implements Runnable {

    @Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static void print(PrintWriter out, JsonNode plan) {
        out.printf("%s %s%s  (%d lock(s))%n", plan.path("agent").asText(), plan.path("session_id").asText(),
                plan.hasNonNull("name") ? " \"" + plan.path("name").asText() + "\"" : "", plan.path("locks").asInt());
        if (!plan.hasNonNull("goal") && !plan.hasNonNull("current_task")) {
            out.println("    (no plan published)");
        }
        if (plan.hasNonNull("goal")) {
            out.println("    goal: " + plan.path("goal").asText());
        }
        if (plan.hasNonNull("current_task")) {
            out.println("    now:  " + plan.path("current_task").asText());
        }
    }

    @Command(name = "set", description = "Publish this session's goal and/or current task (an empty value clears it).")
    static final class Publish extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Mixin AgentOptions agent;
        @Option(names = "--goal", description = "What the session is trying to achieve.") String goal;
        @Option(names = "--task", description = "What it is doing right now.") String task;

        @Override
        public Integer call() {
            if (goal == null && task == null) {
                throw new CliException("give --goal, --task, or both");
            }
            AgentCaller caller = agent.resolve(client());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("session_id", caller.sessionId());
            body.put("goal", goal);
            body.put("current_task", task);
            JsonNode reply = caller.client().post("/v1/plans", body, Duration.ofSeconds(10));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> print(out, reply));
            return 0;
        }
    }

    @Command(name = "show", description = "Show one session's plan (default: this session's).")
    static final class Show extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;
        @Parameters(arity = "0..1", paramLabel = "SESSION", description = "A session id or a unique start of it.") String session;

        @Override
        public Integer call() {
            SidecarClient client = client();
            String who = session != null ? session : CallerSession.identify(client, null);
            if (who == null) {
                throw new CliException("this shell has no Baton session yet (it gets one at its first `baton acquire`,"
                        + " `release`, `negotiate` or `plan set`); name one: baton plan show SESSION");
            }
            JsonNode reply = client.get("/v1/plans/" + LockCommands.encode(who));
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> print(out, reply));
            return 0;
        }
    }

    @Command(name = "list", description = "List every running session with its plan.")
    static final class ListAll extends SidecarCommands implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            JsonNode reply = client().get("/v1/plans");
            PrintWriter out = spec.commandLine().getOut();
            Output.print(out, reply, json, () -> {
                if (reply.path("plans").isEmpty()) {
                    out.println("no sessions are running");
                } else {
                    reply.path("plans").forEach(plan -> print(out, plan));
                }
            });
            return 0;
        }
    }
}
