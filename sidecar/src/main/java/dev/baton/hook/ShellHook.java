package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.layout.HookScript;
import dev.baton.session.ProcessIdentity;
import dev.baton.shell.Enforcement;
import dev.baton.shell.ShellCommand;
import dev.baton.shell.ShellGuard;
import dev.baton.shell.ShellWatch;
import dev.baton.state.BatonException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hook side of shell tools (Claude Bash and PowerShell, Copilot bash/shell, Codex Bash/exec_command/shell/
 * local_shell, Gemini run_shell_command): reads the command from each agent's payload and hands it to the
 * {@link ShellGuard} before and after it runs. A Codex apply_patch here-document is an edit its dialect already
 * names files for; it never reaches this class.
 */
final class ShellHook {

    private static final Logger LOG = LoggerFactory.getLogger(ShellHook.class);

    static final Set<String> SHELL_TOOLS = Set.of("bash", "powershell", "shell", "exec_command", "local_shell",
            "run_shell_command");

    private static final Set<String> SHELLS = Set.of("bash", "sh", "zsh", "dash", "/bin/bash", "/bin/sh",
            "/usr/bin/bash", "/bin/zsh", "/usr/bin/zsh");

    private final ShellGuard guard;
    private final Enforcement enforcement;
    private final ShellWatch watch;
    private final HookSessions sessions;
    private final HookNotices notices;

    ShellHook(ShellGuard guard, Enforcement enforcement, ShellWatch watch, HookSessions sessions, HookNotices notices) {
        this.guard = guard;
        this.enforcement = enforcement;
        this.watch = watch;
        this.sessions = sessions;
        this.notices = notices;
    }

    /**
     * What the wrapper of a shell command is told at its start: how to run it, the run to report the end of, and the
     * ticket its binder follows the lock table with (null when it need not).
     */
    record Guarded(Enforcement.Plan plan, ShellGuard.Run run, ShellWatch.Ticket ticket) {
    }

    /**
     * The wrapper ({@code baton-shell}) is about to run {@code command} for the agent above {@code caller}.
     *
     * @param caller the wrapper's process as the kernel names it; null where it cannot, and nothing is made read-only
     * @param callId the agent's id of the tool call, where its environment names one
     */
    Guarded guard(ProcessIdentity caller, String callId, String command, Path cwd) {
        if (caller == null) {
            return new Guarded(new Enforcement.Plan(Enforcement.Mode.NONE, List.of(), "", ""),
                    new ShellGuard.Run("-", false, null), null);
        }
        Set<String> own = enforcement.ownSessions(caller);
        ShellGuard.Run run = guard.runStarted(own, callId, command, caller);
        Enforcement.Plan plan = enforcement.plan(own, run.announced(), cwd);
        guard.runProtects(run.id(), plan.held());
        ShellWatch.Ticket ticket = plan.mode() == Enforcement.Mode.BIND && !own.isEmpty()
                ? new ShellWatch.Ticket(run.id(), cwd, own) : null;
        return new Guarded(plan, run, ticket);
    }

    /** The binder of a running command asks for the next change of its read-only set. */
    java.util.concurrent.CompletableFuture<Enforcement.Plan> watch(ShellWatch.Ticket ticket, String seen,
                                                                   List<String> rebound) {
        return watch.next(ticket, seen, rebound);
    }

    /** The wrapper reports the end of a run: the command is checked now; what its agent should read. */
    List<String> ended(String runId) {
        return guard.runEnded(runId);
    }

    /**
     * Whether the call is a shell tool's PreToolUse, PostToolUse or PostToolUseFailure (a command that failed may
     * have written all the same) that this class answers.
     */
    boolean handles(HookCall call) {
        return !call.editTool() && call.toolName() != null
                && (call.event() == EventKind.PRE_TOOL || call.event() == EventKind.POST_TOOL
                || call.event() == EventKind.TOOL_FAILED)
                && SHELL_TOOLS.contains(call.toolName().toLowerCase(Locale.ROOT));
    }

    /**
     * @param script the hook script's absolute path, as it said (null when it did not): a command the agent lets
     *               the hook rewrite runs through it while other sessions hold files
     */
    HookReply handle(HookCall call, HookPayload payload, Dialect dialect, long ppid, String script) {
        String session = sessions.ensure(call, ppid);
        String toolUseId = payload.has("tool_use_id") && payload.node("tool_use_id").isTextual()
                ? payload.text("tool_use_id") : null;
        if (call.event() == EventKind.POST_TOOL || call.event() == EventKind.TOOL_FAILED) {
            List<String> lines = new ArrayList<>(guard.after(session, toolUseId));
            if (!dialect.carriesContext(call.event())) {
                return HookReply.SILENT;
            }
            lines.addAll(notices.take(session));
            return HookReply.context(String.join("\n", lines));
        }
        JsonNode input = arguments(payload);
        String command = commandOf(input);
        Path cwd = workingDirectory(call.cwd(), input);
        boolean powershell = call.toolName().equalsIgnoreCase("PowerShell");
        ShellGuard.Decision decision;
        try {
            decision = guard.before(new ShellCommand(session, toolUseId, command, cwd, background(input), powershell));
        } catch (BatonException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // A command Baton cannot read must not stop the agent: it runs as if Baton had no shell checks.
            LOG.warn("could not check the shell command of session {}: {}", session, e.toString());
            decision = new ShellGuard.Proceed(List.of());
        }
        if (decision instanceof ShellGuard.Deny deny) {
            List<String> lines = notices.take(session);
            return new HookReply.Deny(lines.isEmpty() ? deny.reason() : deny.reason() + "\n\n" + String.join("\n", lines));
        }
        List<String> lines = new ArrayList<>(((ShellGuard.Proceed) decision).notes());
        if (dialect.carriesContext(EventKind.PRE_TOOL)) {
            lines.addAll(notices.take(session));
        }
        String context = String.join("\n", lines);
        // The wrapper is installed beside the hook script.
        String wrapper = script != null && script.startsWith("/")
                ? script.substring(0, script.lastIndexOf('/') + 1) + HookScript.SHELL_WRAPPER : null;
        if (dialect.rewritesArguments() && wrapper != null && input != null && input.isObject()
                && input.path("command").isTextual() && !powershell && enforcement.othersHoldFiles(session)
                && Files.isExecutable(Path.of(wrapper))) {
            ObjectNode arguments = ((ObjectNode) input).deepCopy();
            arguments.put("command", quoted(wrapper) + " -c " + singleQuoted(command));
            return new HookReply.Rewrite(arguments, context);
        }
        return dialect.carriesContext(EventKind.PRE_TOOL) ? HookReply.context(context) : HookReply.SILENT;
    }

    private static String singleQuoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** The turn or the session ended: the session's commands still running have ended too. */
    List<String> turnEnded(String session) {
        return guard.turnEnded(session);
    }

    /**
     * Whether the agent runs the command in the background, so that its PostToolUse comes when it starts: Claude
     * Code's {@code run_in_background}, Copilot CLI's {@code mode: "async"}, Gemini CLI's {@code is_background}.
     */
    static boolean background(JsonNode input) {
        if (input == null || !input.isObject()) {
            return false;
        }
        return input.path("run_in_background").asBoolean(false) || input.path("is_background").asBoolean(false)
                || "async".equals(input.path("mode").asText(""));
    }

    /** tool_input (Claude style) or toolArgs (Copilot, an object or a JSON string). */
    private static JsonNode arguments(HookPayload payload) {
        JsonNode input = payload.node("tool_input");
        if (input == null) {
            input = payload.node("toolArgs");
        }
        if (input != null && input.isTextual()) {
            return HookPayload.embedded(input.textValue()).orElse(input);
        }
        return input;
    }

    /**
     * {@code command} as a string, or an argv array ({@code ["bash","-lc","script"]} is the script; any other argv
     * is quoted back into one line).
     */
    static String commandOf(JsonNode input) {
        if (input == null) {
            return null;
        }
        if (input.isTextual()) {
            return input.textValue();
        }
        JsonNode command = input.get("command");
        if (command == null) {
            command = input.get("cmd");
        }
        if (command == null || command.isNull()) {
            return null;
        }
        if (command.isTextual()) {
            return command.textValue();
        }
        if (command.isArray()) {
            List<String> argv = new ArrayList<>();
            command.forEach(word -> argv.add(word.asText()));
            if (argv.size() == 3 && SHELLS.contains(argv.get(0)) && argv.get(1).matches("-l?c|-cl")) {
                return argv.get(2);
            }
            return String.join(" ", argv.stream().map(ShellHook::quoted).toList());
        }
        return null;
    }

    /** Gemini's run_shell_command may name a directory (dir_path, formerly directory) relative to cwd. */
    private static Path workingDirectory(String cwd, JsonNode input) {
        String base = HookSessions.absoluteOrNull(cwd);
        Path dir = base == null ? null : Path.of(base);
        if (input != null && input.isObject()) {
            for (String key : List.of("dir_path", "directory", "workdir", "cwd")) {
                JsonNode value = input.get(key);
                if (value != null && value.isTextual() && !value.textValue().isBlank()) {
                    try {
                        Path given = Path.of(value.textValue());
                        return given.isAbsolute() ? given.normalize() : dir == null ? null : dir.resolve(given).normalize();
                    } catch (java.nio.file.InvalidPathException e) {
                        return null; // a directory no file system has: nothing relative can be resolved
                    }
                }
            }
        }
        return dir;
    }

    private static String quoted(String word) {
        return word.matches("[A-Za-z0-9_./=:@%+,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
