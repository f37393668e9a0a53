package dev.baton.http;

import dev.baton.Baton;
import dev.baton.session.ProcStat;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.session.UserNamespace;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import io.javalin.http.Context;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.LongStream;

/**
 * The person supervising the agents: a request made with the supervisor token ({@code supervisor-token} in
 * BATON_HOME, which the dashboard and {@code baton force-release FILE --supervisor} send instead of the agents' token). Its
 * actions are refused to an agent's process, whatever token it read, and name, for the audit log, the process and
 * terminal the kernel shows behind the connection, and nothing the request says.
 */
final class Supervisor {

    static final String ATTRIBUTE = "baton.supervisor";

    private Supervisor() {
    }

    static boolean is(Context ctx) {
        return Boolean.TRUE.equals(ctx.attribute(ATTRIBUTE));
    }

    /**
     * The audit actor of a supervisor request. FORBIDDEN when the request was made with the agents' token, and when
     * the process behind it is an agent's (see {@link #agentSide}): the token is a file any process of the user can
     * read, so the sidecar decides from what the kernel shows of the caller, and records a refusal.
     */
    static String require(Baton baton, Context ctx, String action) {
        if (!is(ctx)) {
            throw new BatonException(ErrorCode.FORBIDDEN, action + " is the supervisor's: use the dashboard, or"
                    + " `baton force-release FILE --supervisor` from your own terminal (it sends the supervisor token in $BATON_HOME/supervisor-token)");
        }
        if (!Callers.kernelNamesPeers(ctx)) {
            return "supervisor (process unknown)"; // no kernel view of callers here: the token alone decides
        }
        Optional<ProcessIdentity> process = Callers.peer(ctx).find(LongStream.empty());
        Optional<Session> agent = process.flatMap(caller -> baton.sessions().runningAbove(caller));
        String why = process.isEmpty() ? "the sidecar cannot see which process made it"
                : agentSide(process.get(), agent).orElse(null);
        if (why != null) {
            baton.sessions().auditRefusal(agent.map(Session::id).orElse(null), process.orElse(null),
                    "supervisor token used by an agent's process: " + why);
            throw new BatonException(ErrorCode.FORBIDDEN, action + " is the supervisor's, a person's, and this request"
                    + " comes from an agent's process: " + why + ". Use the dashboard, or `baton force-release FILE"
                    + " --supervisor` from a terminal of your own that no agent started");
        }
        return actor(process.get());
    }

    /**
     * Why {@code process} is an agent's rather than the person's, or empty: it runs in another user namespace than
     * the sidecar (Baton's shell wrapper runs agents' commands in one of their own, which no process started there
     * can leave, detached or not), or it is an agent that runs a session, or was started by one and still runs below
     * it.
     */
    static Optional<String> agentSide(ProcessIdentity process, Optional<Session> runningAbove) {
        Optional<String> elsewhere = UserNamespace.otherThanOwn(process.pid());
        if (elsewhere.isPresent()) {
            return Optional.of("pid " + process.pid() + " runs in " + elsewhere.get() + ", not the sidecar's ("
                    + UserNamespace.own().orElseThrow() + "), as the commands Baton's shell wrapper runs for agents do");
        }
        return runningAbove.map(session -> "pid " + process.pid() + " runs below " + session.agent().wireName() + " session "
                + session.shortId() + " (agent pid " + session.process().pid() + ")");
    }

    /**
     * {@code supervisor (pid P COMMAND on TTY)}, all of it the kernel's view of the connection: a name the client
     * sends (the dashboard and the CLI send one) is not written, since any caller could write any name.
     */
    private static String actor(ProcessIdentity process) {
        return "supervisor (pid " + process.pid() + command(process.pid()) + terminal(process.pid()) + ")";
    }

    private static String command(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().command()).map(c -> " " + Path.of(c).getFileName()).orElse("");
    }

    /** The controlling terminal of the process, or of the nearest process above it that has one. */
    private static String terminal(long pid) {
        Optional<ProcStat> current = ProcStat.of(pid);
        for (int depth = 0; depth < 16 && current.isPresent(); depth++) {
            String tty = current.get().terminal();
            if (tty != null) {
                return " on " + tty;
            }
            current = ProcStat.of(current.get().parent());
        }
        return ", no terminal";
    }
}
