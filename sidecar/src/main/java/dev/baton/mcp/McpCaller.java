package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.http.Callers;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * Who an MCP tool call acts for: the session of the agent that runs the MCP server making the call ({@code baton-mcp},
 * a child of the agent), found as a hook call's is, from the kernel's view of the connection and
 * that process's ancestry. No tool takes a session id or key: a key in a tool's arguments would be in the agent's
 * recorded conversation, for anyone who reads it to use.
 */
final class McpCaller {

    private final Baton baton;
    private final Context ctx;
    private Optional<Session> session;

    McpCaller(Baton baton, Context ctx) {
        this.baton = baton;
        this.ctx = ctx;
    }

    /** The calling agent's session, or UNAUTHORIZED saying why none can be told. */
    Session session() {
        Optional<Session> found = sessionIfAny();
        if (found.isPresent()) {
            return found.get();
        }
        Optional<ProcessIdentity> process = process();
        if (process.isEmpty()) {
            throw new BatonException(ErrorCode.UNAUTHORIZED, "the kernel does not name the process behind this MCP"
                    + " connection" + (Callers.kernelNamesPeers(ctx) ? "" : " (it is asked on Linux only)")
                    + "; Baton's tools act for the agent that runs Baton's MCP server (baton-mcp)");
        }
        throw new BatonException(ErrorCode.UNAUTHORIZED, "no Baton session runs above this MCP server (pid "
                + process.get().pid() + "): the tools act for the session of the agent that started it, which its"
                + " first hook call registers; start Baton's MCP server from the agent, as baton install sets it up");
    }

    /** The calling agent's session, if the kernel names the caller and a session runs above it. */
    Optional<Session> sessionIfAny() {
        if (session == null) {
            session = process().flatMap(caller -> baton.sessions().runningAbove(caller));
        }
        return session;
    }

    /** The pid a path through {@code /proc/self} means in this call: the MCP server's, a child of the agent. */
    long self() {
        return process().map(ProcessIdentity::pid).orElse(0L);
    }

    private Optional<ProcessIdentity> process() {
        return Callers.process(ctx, hint("pid"), hint("ppid"));
    }

    /** A pid the MCP server names for itself: where the kernel's lookup looks first, never proof. */
    private long hint(String name) {
        String value = ctx.queryParam(name);
        try {
            return value == null ? 0 : Math.max(0, Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
