package dev.baton.hook;

import dev.baton.Baton;
import dev.baton.http.Bodies;
import dev.baton.http.Callers;
import dev.baton.session.ProcessIdentity;
import dev.baton.shell.Enforcement;
import dev.baton.shell.ShellWatch;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code POST /v1/hooks?agent=claude|copilot|codex|gemini|opencode&event=EVENT&pid=PID&ppid=PID[&script=PATH]}, body: the
 * agent's raw hook payload (bearer token required, like every route). {@code pid} is the process that holds the
 * connection (the forked copy of the script that does its exchange) and {@code ppid} its parent, the script: hints
 * of where the kernel's view of the connection is looked up, never proof. {@code script} is where the hook script
 * is, for a shell command the hook rewrites to run through it. OpenCode's plug-in runs inside the agent, so for
 * {@code agent=opencode} the process behind the connection is the agent ({@code pid} its hint, no {@code ppid}).
 *
 * <p>The reply is shaped so that the bash hook script can act on it without parsing JSON: status 200, header
 * {@code X-Baton-Exit: N} (the exit code the script must return), header {@code X-Baton-Stream: stderr} when the
 * text goes to stderr (absent: stdout), and a body that is exactly the bytes to print, often empty. Bad input
 * is a 4xx with the usual JSON error, never a 200.
 */
public final class HookRoutes {

    public static final String EXIT_HEADER = "X-Baton-Exit";
    public static final String STREAM_HEADER = "X-Baton-Stream";
    public static final String GUARD_HEADER = "X-Baton-Guard";
    public static final String RUN_HEADER = "X-Baton-Run";
    public static final String FILES_HEADER = "X-Baton-Files";
    public static final String PINS_HEADER = "X-Baton-Pins";
    public static final String VERSION_HEADER = "X-Baton-Version";
    public static final String WATCH_HEADER = "X-Baton-Watch";

    private final HookService service;

    private final Dialects dialects;

    private HookRoutes(HookService service, Dialects dialects) {
        this.service = service;
        this.dialects = dialects;
    }

    /** The hook route group for {@code HttpApi}, with the seams later features plug into. */
    public static Consumer<RoutesConfig> of(Baton baton, Dialects dialects, LockScope scope, HookNotices notices,
                                            DeniedEditListener denials) {
        HookRoutes routes = new HookRoutes(new HookService(baton, dialects, scope, notices, denials), dialects);
        return config -> {
            config.post("/v1/hooks", routes::handle);
            config.post("/v1/shell/guard", routes::guard);
            config.post("/v1/shell/ended", routes::ended);
            config.post("/v1/shell/watch", routes::watch);
        };
    }

    /**
     * {@code POST /v1/shell/guard?pid=PID&ppid=PID[&call=ID]}, body: the directory the shell wrapper ({@code
     * baton-shell}) runs in, a newline, and the command it is about to run. The wrapper's process is the kernel's answer for the connection
     * ({@code pid} and {@code ppid} are hints of where to look); {@code call} is the agent's id of the tool call where
     * its environment names one. The reply, made for a small C client like the hook's: headers {@code X-Baton-Guard:
     * none|bind|unwrapped}, {@code X-Baton-Run: ID} ("-" when the wrapper need not report the end), the plan ({@link
     * #plan}), and {@code X-Baton-Watch: TICKET} when the wrapper is to follow the lock table while the command runs
     * ({@code POST /v1/shell/watch}); after the plan's lines, the text to show (for bind, after a failure; for
     * unwrapped, before the command).
     */
    private void guard(Context ctx) {
        long pid = pid(ctx.queryParam("pid"), "pid");
        long ppid = pid(ctx.queryParam("ppid"), "ppid");
        ProcessIdentity caller = Callers.kernelNamesPeers(ctx) ? Callers.process(ctx, pid, ppid).orElse(null) : null;
        String body = new String(ctx.bodyAsBytes(), StandardCharsets.UTF_8);
        int newline = body.indexOf('\n');
        String cwd = newline < 0 ? null : body.substring(0, newline);
        String command = newline < 0 ? body : body.substring(newline + 1);
        ShellHook.Guarded guarded = service.guard(caller, ctx.queryParam("call"), command, cwd);
        Enforcement.Plan plan = guarded.plan();
        StringBuilder reply = plan(ctx, plan);
        reply.append(plan.mode() == Enforcement.Mode.UNWRAPPED
                ? "Baton runs this command without making the files other sessions hold read-only: " + plan.why()
                + "; it checks the command before and after it ran."
                : plan.note());
        ctx.header(GUARD_HEADER, plan.mode().name().toLowerCase(Locale.ROOT));
        ctx.header(RUN_HEADER, guarded.run().reportEnd() ? guarded.run().id() : "-");
        if (guarded.ticket() != null) {
            ctx.header(WATCH_HEADER, guarded.ticket().encoded());
        }
        text(ctx, reply.toString());
    }

    /**
     * The one writer of a plan on the wire: headers {@code X-Baton-Files: N}, {@code X-Baton-Pins: M} and {@code
     * X-Baton-Version: HEX}; the body's first N lines are the files to make read-only, the next M the directories to
     * pin. Returns the body so far.
     */
    private static StringBuilder plan(Context ctx, Enforcement.Plan plan) {
        StringBuilder reply = new StringBuilder();
        plan.files().forEach(file -> reply.append(file).append('\n'));
        plan.pins().forEach(pin -> reply.append(pin).append('\n'));
        ctx.header(FILES_HEADER, Integer.toString(plan.files().size()));
        ctx.header(PINS_HEADER, Integer.toString(plan.pins().size()));
        ctx.header(VERSION_HEADER, plan.version());
        return reply;
    }

    /**
     * {@code POST /v1/shell/watch}, body: the ticket the guard gave, a newline, the version of the plan the wrapper's
     * binder carries out, a newline, then the files it had to bind again since it last asked (their holder replaced
     * them), one per line. Answered once the plan differs from that version (a file taken or released), or after
     * {@code ShellWatch.LONGEST} with the plan as it is: the plan ({@link #plan}), then the note as the guard's
     * answer has it, naming the files read-only now and their holders.
     */
    private void watch(Context ctx) {
        String body = new String(ctx.bodyAsBytes(), StandardCharsets.UTF_8);
        String[] lines = body.split("\n", -1);
        if (lines.length < 2 || lines[0].isBlank()) {
            throw BatonException.invalid("the body must be the watch ticket and the plan's version, a line each");
        }
        ShellWatch.Ticket ticket = ShellWatch.Ticket.decode(lines[0]);
        List<String> rebound = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            if (lines[i].startsWith("/")) {
                rebound.add(lines[i]);
            }
        }
        CompletableFuture<Enforcement.Plan> next = service.shellWatch(ticket, lines[1].strip(), rebound);
        ctx.future(() -> next.thenAccept(plan -> text(ctx, plan(ctx, plan).append(plan.note()).toString())));
    }

    /**
     * {@code POST /v1/shell/ended?run=ID}: the wrapper's command of that run ended. The body of the reply is what the
     * agent should read (a change to another session's file, found now), often nothing.
     */
    private void ended(Context ctx) {
        String run = Bodies.requiredQuery(ctx, "run");
        text(ctx, String.join("\n", service.shellEnded(run)));
    }

    private static void text(Context ctx, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ctx.status(200);
        ctx.header("Content-Length", Integer.toString(bytes.length));
        ctx.contentType("text/plain; charset=utf-8").result(bytes);
    }

    private void handle(Context ctx) {
        String agent = Bodies.requiredQuery(ctx, "agent");
        HookCaller caller = dialects.runsInAgent(agent) ? HookCaller.inAgent(ctx, pid(ctx.queryParam("pid"), "pid"))
                : HookCaller.of(ctx, pid(ctx.queryParam("pid"), "pid"), pid(ctx.queryParam("ppid"), "ppid"));
        HookOutput output = service.handle(new HookService.HookRequest(agent, ctx.queryParam("event"),
                caller.ppid(), ctx.bodyAsBytes(), caller.peer(), ctx.queryParam("script")));
        byte[] text = output.text().getBytes(StandardCharsets.UTF_8);
        ctx.status(200);
        ctx.header(EXIT_HEADER, Integer.toString(output.exitCode()));
        if (output.toStderr()) {
            ctx.header(STREAM_HEADER, "stderr");
        }
        // An explicit length lets the script read exactly the body, whatever the server does with the connection.
        ctx.header("Content-Length", Integer.toString(text.length));
        ctx.contentType("text/plain; charset=utf-8").result(text);
    }

    private static long pid(String value, String name) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            long pid = Long.parseLong(value.trim());
            if (pid < 0) {
                throw BatonException.invalid(name + " must be a process id, was " + value);
            }
            return pid;
        } catch (NumberFormatException e) {
            throw BatonException.invalid(name + " must be a process id, was '" + value + "'");
        }
    }
}
