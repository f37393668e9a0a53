package dev.baton.session;

import dev.baton.state.World;
import java.time.Duration;
import java.util.Optional;

/**
 * Who may tie an agent's session stored without an agent process (its first hook call reached the sidecar only after
 * the hook gave up, so the kernel named no process for it) to one: an agent process of its kind that was already
 * running when the session was first heard of, as the agent whose call that was had to be, and is free to take it
 * ({@link ResumeRule#notFree}). So its agent is never locked out, and another agent, or a process one starts, is.
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
