package dev.baton.plan;

import dev.baton.lock.LockRows;
import dev.baton.session.Plan;
import dev.baton.session.Session;
import dev.baton.session.SessionPrefix;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.Ledger;
import dev.baton.state.World;
import java.util.Comparator;
import java.util.List;

/**
 * Plans: each session publishes a goal and its current task so others can judge whether to wait
 * for it; the holder's plan also appears in the sentence a blocked agent reads.
 */
public final class Plans {

    public static final int MAX_GOAL_LENGTH = 300;
    public static final int MAX_TASK_LENGTH = 300;

    private final Ledger ledger;

    public Plans(Ledger ledger) {
        this.ledger = ledger;
    }

    /**
     * Updates the session's plan: a null part keeps its current value, an empty one clears it.
     * At least one part must be given.
     */
    public PlanEntry publish(String sessionId, String goal, String currentTask) {
        if (goal == null && currentTask == null) {
            throw BatonException.invalid("give a goal, a current task, or both");
        }
        check(goal, "goal", MAX_GOAL_LENGTH);
        check(currentTask, "current task", MAX_TASK_LENGTH);
        return ledger.write(tx -> {
            Session session = tx.world().find(SessionRows.SESSIONS, sessionId)
                    .orElseThrow(() -> BatonException.notFound("session " + sessionId
                            + " is not registered (it may have ended or been cleaned up as stale)"));
            Plan old = session.plan();
            String newGoal = merge(goal, old == null ? null : old.goal());
            String newTask = merge(currentTask, old == null ? null : old.currentTask());
            Plan plan = newGoal == null && newTask == null ? null : new Plan(newGoal, newTask, tx.now());
            Session planned = session.withPlan(plan).withHeartbeat(tx.now());
            SessionRows.save(tx, planned);
            return entry(tx.world(), planned);
        });
    }

    private static void check(String value, String what, int max) {
        if (value != null && value.strip().length() > max) {
            throw BatonException.invalid("the " + what + " is " + value.strip().length() + " characters long; the limit is "
                    + max + " (one line others can scan)");
        }
    }

    private static String merge(String given, String old) {
        if (given == null) {
            return old;
        }
        return given.isBlank() ? null : given.strip();
    }

    /** Every running session's plan (sessions without one included, so the list shows who is silent), oldest first. */
    public List<PlanEntry> list() {
        return ledger.read(world -> world.rows(SessionRows.SESSIONS).stream()
                .sorted(Comparator.comparing(Session::startedAt).thenComparing(Session::id))
                .map(session -> entry(world, session))
                .toList());
    }

    /** One session's plan, by its id or a unique start of it. */
    public PlanEntry of(String sessionIdOrPrefix) {
        return ledger.read(world -> entry(world, SessionPrefix.resolve(world, sessionIdOrPrefix)));
    }

    private static PlanEntry entry(World world, Session session) {
        Plan plan = session.plan();
        return new PlanEntry(session.id(), session.agent().wireName(), session.name(), session.cwd(),
                plan == null ? null : plan.goal(), plan == null ? null : plan.currentTask(),
                plan == null ? null : plan.updatedAt(), world.keysIn(LockRows.FILES, session.id()).size());
    }
}
