package dev.baton.http;

import dev.baton.Baton;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Session;
import dev.baton.session.UserNamespace;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.file.Files;
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
        Optional<String> own = UserNamespace.own();
        Optional<String> its = UserNamespace.of(process.pid());
        if (own.isPresent() && !own.equals(its)) {
            return Optional.of("pid " + process.pid() + " runs in " + its.map(ns -> "user namespace " + ns)
                    .orElse("a user namespace the sidecar cannot read") + ", not the sidecar's (" + own.get()
                    + "), as the commands Baton's shell wrapper runs for agents do");
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

    /** The controlling terminal from {@code /proc/PID/stat} (field 7, tty_nr), walking up to the first that has one. */
    private static String terminal(long pid) {
        Optional<ProcessHandle> current = ProcessHandle.of(pid);
        for (int depth = 0; depth < 16 && current.isPresent(); depth++) {
            String tty = ttyOf(current.get().pid());
            if (tty != null) {
                return " on " + tty;
            }
            current = current.get().parent();
        }
        return ", no terminal";
    }

    private static String ttyOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            int tty = Integer.parseInt(fields[4]);
            int major = (tty >> 8) & 0xfff;
            int minor = (tty & 0xff) | ((tty >> 12) & 0xfff00);
            if (major >= 136 && major <= 143) {
                return "/dev/pts/" + ((major - 136) * 256 + minor);
            }
            return major == 4 ? "/dev/tty" + minor : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
