package dev.baton.hook;

import dev.baton.git.RepoRoot;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registered;
import dev.baton.session.Registration;
import dev.baton.session.Session;
import dev.baton.session.SessionRegistry;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns the agent's view of who is calling into a registered session: a session that never sent
 * SessionStart is registered on its first event, a Claude Code subagent is a session of its own inside its
 * parent's (made only from the parent's own hook calls), and a Copilot payload without a sessionId belongs to its
 * agent process, under an id no other process can guess and take first.
 */
final class HookSessions {

    /** Ids of sessions known by their agent process alone; the rest of such an id is random. */
    static final String FALLBACK_PREFIX = "copilot-";

    private final SessionRegistry sessions;
    private final String host;

    HookSessions(SessionRegistry sessions, String host) {
        this.sessions = sessions;
        this.host = host;
    }

    /** The id of the session the call acts for (a subagent's own), registering it and its parent if needed. */
    String ensure(HookCall call, long ppid) {
        AgentLookup agent = new AgentLookup(ppid);
        String main = call.sessionId() != null ? call.sessionId() : null;
        if (main == null) {
            main = sessions.registerForProcess(FALLBACK_PREFIX, registration(null, call, agent.required(), null))
                    .session().id();
        } else if (sessions.find(main).isEmpty()) {
            sessions.register(registration(main, call, agent, null));
        }
        if (call.subagentId() == null) {
            return main;
        }
        String sub = subagentOf(main, call.subagentId());
        Optional<Session> known = sessions.find(sub);
        if (known.isEmpty()) {
            sessions.register(registration(sub, call, agent, main));
        } else if (!main.equals(known.get().parentId())) {
            throw new BatonException(ErrorCode.CONFLICT, "session " + sub + " is registered, but not as a subagent of "
                    + Session.shortId(main) + "; a subagent's session is made only by its parent's own hook calls");
        }
        return sub;
    }

    /** The session id of a subagent inside its parent's: {@code PARENT/AGENT_ID}. */
    static String subagentOf(String main, String agentId) {
        return main + "/" + agentId;
    }

    /** Registers the main session again for the agent process that resumed it, its first agent having exited. */
    void resume(HookCall call, long ppid) {
        AgentLookup agent = new AgentLookup(ppid);
        sessions.register(registration(mainIdIfKnown(call, ppid), call, agent.required(), null));
    }

    /** Registers (or refreshes) the main session at SessionStart; the key is present only when it was created now. */
    Registered start(HookCall call, long ppid) {
        AgentLookup agent = new AgentLookup(ppid);
        if (call.sessionId() == null) {
            return sessions.registerForProcess(FALLBACK_PREFIX, registration(null, call, agent.required(), null));
        }
        return sessions.register(registration(call.sessionId(), call, agent, null));
    }

    /**
     * The main conversation's id without registering anything; null when it cannot be known (an agent that names no
     * session and has none yet).
     */
    String mainIdIfKnown(HookCall call, long ppid) {
        if (call.sessionId() != null) {
            return call.sessionId();
        }
        return new AgentLookup(ppid).get()
                .flatMap(process -> sessions.idOfProcess(FALLBACK_PREFIX, call.agent(), process))
                .orElse(null);
    }

    /** The agent process above the hook whose parent is {@code ppid}, as the kernel shows it. */
    static Optional<ProcessIdentity> agentOf(long ppid) {
        return new AgentLookup(ppid).get();
    }

    private Registration registration(String id, HookCall call, AgentLookup agent, String parentId) {
        return registration(id, call, agent.get().orElse(null), parentId);
    }

    private Registration registration(String id, HookCall call, ProcessIdentity agent, String parentId) {
        String cwd = absoluteOrNull(call.cwd());
        String repoRoot = cwd == null ? null : RepoRoot.of(Path.of(cwd)).map(Path::toString).orElse(null);
        return new Registration(id, call.agent(), agent, host, cwd, repoRoot, null, parentId);
    }

    static String absoluteOrNull(String cwd) {
        if (cwd == null) {
            return null;
        }
        if (cwd.isBlank() || cwd.indexOf('\0') >= 0 || !cwd.startsWith("/")) {
            throw BatonException.invalid("cwd in the hook payload must be an absolute path, was '"
                    + cwd.replace("\0", "\\0") + "'");
        }
        try {
            return Path.of(cwd).normalize().toString();
        } catch (InvalidPathException e) { // an unpaired surrogate from a JSON escape cannot be a file name
            throw BatonException.invalid("cwd in the hook payload is not a valid path: " + e.getReason());
        }
    }

    /** The agent process, looked up at most once per call and only when it is needed. */
    private static final class AgentLookup {
        private final long ppid;
        private Optional<ProcessIdentity> found;

        AgentLookup(long ppid) {
            this.ppid = ppid;
        }

        Optional<ProcessIdentity> get() {
            if (found == null) {
                found = AgentProcess.above(ppid);
            }
            return found;
        }

        /** The agent process, for a session that is known only by it: without one the call cannot be placed. */
        ProcessIdentity required() {
            return get().orElseThrow(() -> BatonException.invalid("the hook payload has no session id and the agent"
                    + " process above the hook (ppid " + ppid + ") cannot be found; run the hook from the agent, as"
                    + " baton install sets it up"));
        }
    }
}
