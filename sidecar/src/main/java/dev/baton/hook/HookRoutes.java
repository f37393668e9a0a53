package dev.baton.hook;

import dev.baton.Baton;
import dev.baton.http.Bodies;
import dev.baton.state.BatonException;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * {@code POST /v1/hooks?agent=claude|copilot|codex|gemini&event=EVENT&pid=PID&ppid=PID}, body: the agent's raw
 * hook payload (bearer token required, like every route). {@code pid} is the process that holds the connection (the
 * forked copy of the script that does its exchange) and {@code ppid} its parent, the script: hints of where the
 * kernel's view of the connection is looked up, never proof.
 *
 * <p>The reply is shaped so that the bash hook script can act on it without parsing JSON: status 200, header
 * {@code X-Baton-Exit: N} (the exit code the script must return), header {@code X-Baton-Stream: stderr} when the
 * text goes to stderr (absent: stdout), and a body that is exactly the bytes to print, often empty. Bad input
 * is a 4xx with the usual JSON error, never a 200.
 */
public final class HookRoutes {

    public static final String EXIT_HEADER = "X-Baton-Exit";
    public static final String STREAM_HEADER = "X-Baton-Stream";

    private final HookService service;

    private HookRoutes(HookService service) {
        this.service = service;
    }

    /** The hook route group for {@code HttpApi}, with the seams later features plug into. */
    public static Consumer<RoutesConfig> of(Baton baton, LockScope scope, HookNotices notices, DeniedEditListener denials) {
        HookRoutes routes = new HookRoutes(new HookService(baton, scope, notices, denials));
        return config -> config.post("/v1/hooks", routes::handle);
    }

    private void handle(Context ctx) {
        String agent = Bodies.requiredQuery(ctx, "agent");
        HookCaller caller = HookCaller.of(ctx, pid(ctx.queryParam("pid"), "pid"), pid(ctx.queryParam("ppid"), "ppid"));
        HookOutput output = service.handle(new HookService.HookRequest(agent, ctx.queryParam("event"),
                caller.ppid(), ctx.bodyAsBytes(), caller.peer()));
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
