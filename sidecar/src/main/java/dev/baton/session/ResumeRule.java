package dev.baton.session;

import dev.baton.state.World;
import java.time.Duration;
import java.util.Optional;

/**
 * Who may take up the id of a session that ended (or whose agent process exited): the agent process that ran it,
 * at any time; another process only as a resume of it that the kernel's facts bear out. Such a process is an agent
 * of the same kind, started after the session was last heard from, running no other session, in the sidecar's user
 * namespace (not in the one Baton's shell wrapper runs an agent's command in), and not started from inside the process
 * tree of an agent that runs or ran a session. So an agent cannot take over the id of a session
 * it saw end, from its own process or from one it starts, and the real resume of that session is not refused.
 */
final class ResumeRule {

    /** Start instants come from clock ticks since boot, the session's times from the clock: allow for rounding. */
    private static final Duration TOLERANCE = Duration.ofSeconds(1);

    private ResumeRule() {
    }

    /** Why {@code claimant} may not take up {@code ended}'s id, or empty when it may. */
    static Optional<String> refusal(EndedSession ended, AgentKind agent, ProcessIdentity claimant, World world) {
        String session = "session " + Session.shortId(ended.id());
        if (ended.process() == null) {
            return claimant == null ? Optional.empty() : Optional.of(session + " was registered without an agent"
                    + " process; it cannot be given one now (register a new session instead)");
        }
        if (claimant == null) {
            return Optional.of(session + " belonged to agent process " + ended.process().pid() + "; a call that names"
                    + " no agent process cannot take its id up");
        }
        if (sameProcess(ended.process(), claimant)) {
            return Optional.empty();
        }
        String taker = "process " + claimant.pid();
        if (!agent.equals(ended.agent())) {
            return Optional.of(session + " was a " + ended.agent().wireName() + " session; " + taker + " registers as "
                    + agent.wireName());
        }
        if (claimant.startedAt() == null || claimant.startedAt().isBefore(ended.lastHeard().minus(TOLERANCE))) {
            return Optional.of(session + " was last heard from at " + ended.lastHeard() + ", and " + taker + " was"
                    + " already running then; only its own agent (pid " + ended.process().pid() + ") or a new agent"
                    + " process started to resume it takes its id up");
        }
        return notFree(claimant, ended.id(), world);
    }

    /**
     * Why {@code claimant} may not take up session {@code id} even as an agent process of its kind: it runs another
     * session (its subagents' aside), or it runs where an agent's commands run (the user namespace of Baton's shell
     * wrapper, or the process tree of an agent that runs or ran a session). Empty when it is free to.
     */
    static Optional<String> notFree(ProcessIdentity claimant, String id, World world) {
        String session = "session " + Session.shortId(id);
        String taker = "process " + claimant.pid();
        Optional<Session> running = world.rows(SessionRows.SESSIONS).stream()
                .filter(other -> sameProcess(other.process(), claimant) && !other.familyId().equals(id))
                .findFirst();
        if (running.isPresent()) {
            return Optional.of(taker + " runs session " + running.get().shortId() + "; it cannot take up the id of "
                    + session + " as well");
        }
        if (UserNamespace.otherThanOwn(claimant.pid()).isPresent()) {
            return Optional.of(taker + " runs in another user namespace than the sidecar's, as the commands Baton's shell"
                    + " wrapper runs for agents do (a job detached from one stays in it); only a process started outside"
                    + " every agent may take up " + session);
        }
        return insideAnAgent(claimant, world).map(agentSession -> taker + " was started from inside the process tree"
                + " of " + agentSession + "; only a process started outside every agent may take up " + session);
    }

    /** The session (live or ended) of the nearest agent process above {@code process}, if any. */
    static Optional<String> insideAnAgent(ProcessIdentity process, World world) {
        return ProcessAncestry.ancestry(process).skip(1).map(ancestor -> world.rows(SessionRows.SESSIONS).stream()
                        .filter(session -> session.agent().isAgent() && sameProcess(session.process(), ancestor))
                        .map(session -> "agent session " + session.shortId() + " (pid " + ancestor.pid() + ")")
                        .findFirst()
                        .or(() -> world.rows(SessionRows.ENDED).stream()
                                .filter(ended -> ended.agent().isAgent() && sameProcess(ended.process(), ancestor))
                                .map(ended -> "the agent of ended session " + Session.shortId(ended.id())
                                        + " (pid " + ancestor.pid() + ")")
                                .findFirst()))
                .flatMap(Optional::stream)
                .findFirst();
    }

    static boolean sameProcess(ProcessIdentity a, ProcessIdentity b) {
        return ProcessIdentity.same(a, b);
    }
}
