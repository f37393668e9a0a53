package dev.baton.http;

import dev.baton.session.ProcessIdentity;
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
 * actions name, for the audit log, the process and terminal the kernel shows behind the connection, and nothing the
 * request says.
 */
final class Supervisor {

    static final String ATTRIBUTE = "baton.supervisor";

    private Supervisor() {
    }

    static boolean is(Context ctx) {
        return Boolean.TRUE.equals(ctx.attribute(ATTRIBUTE));
    }

    /** The audit actor of a supervisor request, or FORBIDDEN when the request was made with the agents' token. */
    static String require(Context ctx, String action) {
        if (!is(ctx)) {
            throw new BatonException(ErrorCode.FORBIDDEN, action + " is the supervisor's: use the dashboard, or"
                    + " `baton force-release FILE --supervisor` from your own terminal (it sends the supervisor token in $BATON_HOME/supervisor-token)");
        }
        return actor(ctx);
    }

    /**
     * {@code supervisor (pid P COMMAND on TTY)}, all of it the kernel's view of the connection: a name the client
     * sends (the dashboard and the CLI send one) is not written, since any caller could write any name.
     */
    static String actor(Context ctx) {
        Optional<ProcessIdentity> process = Callers.peer(ctx).find(LongStream.empty());
        return "supervisor" + process.map(p -> " (pid " + p.pid() + command(p.pid()) + terminal(p.pid()) + ")")
                .orElse(" (process unknown)");
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
