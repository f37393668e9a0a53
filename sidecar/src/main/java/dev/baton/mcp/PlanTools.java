package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.plan.PlanEntry;
import dev.baton.plan.Plans;
import dev.baton.session.Session;
import java.util.List;
import java.util.Map;

/** update_plan and list_plans: what each session is working on. */
final class PlanTools {

    private final Baton baton;

    PlanTools(Baton baton) {
        this.baton = baton;
    }

    List<Tool> tools() {
        return List.of(
                new Tool("update_plan", "Publish your plan",
                        "Tell the other sessions what you are working on: your goal and your current task. Give either or"
                                + " both; a part you leave out keeps its value, an empty string clears it. Your plan appears"
                                + " when another agent is blocked by a file you hold.",
                        Schema.agentCall()
                                .property("goal", Schema.string("What you are trying to achieve overall.", 0, Plans.MAX_GOAL_LENGTH))
                                .property("current_task", Schema.string("What you are doing right now.", 0, Plans.MAX_TASK_LENGTH))
                                .build(),
                        this::update),
                new Tool("list_plans", "What every session is working on",
                        "List the running sessions with their goal and current task (and how many files each holds).",
                        Schema.object()
                                .property("session", Schema.string("Only this session: its id or a unique start of it.", 1, 200))
                                .build(),
                        this::list));
    }

    private ToolResult update(ToolArgs args) {
        Session session = args.session();
        PlanEntry entry = baton.plans().publish(session.id(), args.string("goal"), args.string("current_task"));
        return ToolResult.ok("plan published: " + describe(entry), entry);
    }

    private ToolResult list(ToolArgs args) {
        List<PlanEntry> plans = args.has("session") ? List.of(baton.plans().of(args.string("session"))) : baton.plans().list();
        List<String> lines = plans.stream().map(entry -> entry.agent() + " " + entry.sessionId() + ": " + describe(entry)).toList();
        return ToolResult.ok(plans.isEmpty() ? "no sessions are running" : String.join("\n", lines), Map.of("plans", plans));
    }

    private static String describe(PlanEntry entry) {
        if (entry.goal() == null && entry.currentTask() == null) {
            return "(no plan published)";
        }
        return (entry.goal() == null ? "" : "goal: " + entry.goal())
                + (entry.goal() != null && entry.currentTask() != null ? "; " : "")
                + (entry.currentTask() == null ? "" : "now: " + entry.currentTask());
    }
}
