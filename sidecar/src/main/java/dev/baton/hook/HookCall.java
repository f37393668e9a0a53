package dev.baton.hook;

import dev.baton.session.AgentKind;
import java.util.List;

/**
 * One hook event as Baton needs it, whatever the dialect: who (agent, session, subagent), where (cwd), what
 * (event, tool) and the files the tool will write, as the agent spelled them (relative ones resolve against cwd).
 *
 * @param sessionId null when the agent sent none (Copilot CLI may omit it); the session is then its process
 * @param subagentId a Claude Code subagent's {@code agent_id}, or null for the main conversation
 * @param files empty unless {@code editTool}
 */
public record HookCall(
        AgentKind agent,
        EventKind event,
        String sessionId,
        String subagentId,
        String cwd,
        String toolName,
        boolean editTool,
        List<String> files) {

    public HookCall {
        files = List.copyOf(files);
    }
}
