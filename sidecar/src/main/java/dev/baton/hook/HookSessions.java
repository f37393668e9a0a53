package dev.baton.hook;

import dev.baton.git.RepoRoot;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registered;
import dev.baton.session.Registration;
import dev.baton.session.SessionRegistry;
import dev.baton.state.BatonException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns the agent's view of who is calling into a registered session: a session that never sent
 * SessionStart is registered on its first event, a Claude Code subagent is a session of its own inside its
 * parent's, and a Copilot payload without a sessionId belongs to its agent process.
 */
final class HookSessions {

    private final SessionRegistry sessions;
    private final String host;

    HookSessions(SessionRegistry sessions, String host) {
        this.sessions = sessions;
        this.host = host;
    }

    /** The id of the session the call acts for (a subagent's own), registering it and its parent if needed. */
    String ensure(HookCall call, long ppid) {
        AgentLookup agent = new AgentLookup(ppid);
        String main = mainId(call, agent);
        if (sessions.find(main).isEmpty()) {
            sessions.register(registration(main, call, agent, null));
        }
        if (call.subagentId() == null) {
            return main;
        }
        String sub = subagentOf(main, call.subagentId());
        if (sessions.find(sub).isEmpty()) {
            sessions.register(registration(sub, call, agent, main));
        }
        return sub;
    }

    /** The session id of a subagent inside its parent's: {@code PARENT/AGENT_ID}. */
    static String subagentOf(String main, String agentId) {
        return main + "/" + agentId;
    }

    /** Registers (or refreshes) the main session at SessionStart; the key is present only when it was created now. */
    Registered start(HookCall call, long ppid) {
        AgentLookup agent = new AgentLookup(ppid);
        return sessions.register(registration(mainId(call, agent), call, agent, null));
    }

    /** The main conversation's id without registering anything; null when it cannot be known. */
    String mainIdIfKnown(HookCall call, long ppid) {
        return call.sessionId() != null ? call.sessionId() : copilotProcessId(new AgentLookup(ppid)).orElse(null);
    }

    private String mainId(HookCall call, AgentLookup agent) {
        if (call.sessionId() != null) {
            return call.sessionId();
        }
        return copilotProcessId(agent).orElseThrow(() -> BatonException.invalid("the hook payload has no session id"
                + " and the agent process above the hook (ppid " + agent.ppid + ") cannot be found;"
                + " run the hook from the agent, as baton install sets it up"));
    }

    /** Copilot CLI may omit sessionId; its process (pid and start instant) is then the conversation. */
    private static Optional<String> copilotProcessId(AgentLookup agent) {
        return agent.get().map(process -> "copilot-" + process.pid() + "-"
                + Optional.ofNullable(process.startedAt()).map(Instant::toEpochMilli).orElse(0L));
    }

    private Registration registration(String id, HookCall call, AgentLookup agent, String parentId) {
        String cwd = absoluteOrNull(call.cwd());
        String repoRoot = cwd == null ? null : RepoRoot.of(Path.of(cwd)).map(Path::toString).orElse(null);
        return new Registration(id, call.agent(), agent.get().orElse(null), host, cwd, repoRoot, null, parentId);
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
    }
}
