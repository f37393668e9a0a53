package dev.baton.session;

import dev.baton.state.World;
import java.time.Duration;
import java.util.Optional;

/**
 * Who may tie an agent's session that is stored without an agent process to one. That happens when the first hook
 * call of a session reached the sidecar only after the hook gave up on it (a cold start on a busy machine): nothing
 * holds the call's connection any more, so the kernel names no process for it, yet the session is stored. Its agent
 * must not be locked out of it, and no other agent may take it: it is tied to the first caller the kernel shows to
 * be an agent process of the session's kind that was already running when the session was first heard of (the
 * agent whose call that was had to be), running no other session, in the sidecar's user namespace, and not started
 * from inside the process tree of an agent that runs or ran a session ({@link ResumeRule#notFree}). Another running
 * agent runs its own session; a process it starts, even detached, started too late or stays in its tree or namespace.
 */
final class TieRule {

    /** Start instants come from clock ticks since boot, the session's times from the clock: allow for rounding. */
    private static final Duration TOLERANCE = Duration.ofSeconds(1);

    private TieRule() {
    }

    /** Why {@code claimant}, calling as {@code agent}, may not tie {@code untied} to itself, or empty when it may. */
    static Optional<String> refusal(Session untied, AgentKind agent, ProcessIdentity claimant, World world) {
        String session = "session " + untied.shortId();
        if (!untied.agent().isAgent()) {
            return Optional.of(session + " was registered without an agent process; it cannot be given one now"
                    + " (register a new session instead)");
        }
        String taker = "process " + claimant.pid();
        if (!agent.equals(untied.agent())) {
            return Optional.of(session + " is a " + untied.agent().wireName() + " session; " + taker + " calls as "
                    + agent.wireName());
        }
        if (claimant.startedAt() == null || claimant.startedAt().isAfter(untied.startedAt().plus(TOLERANCE))) {
            return Optional.of(taker + " started after " + session + " was first heard of (at " + untied.startedAt()
                    + "); only the agent process that was already running then takes up a session stored without one");
        }
        return ResumeRule.notFree(claimant, untied.id(), world);
    }
}
