package dev.baton.hook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real, long-lived process standing in for an agent: a copy of bash under a name of its own (so Baton takes it,
 * not a shell above the hook, for the agent process), which runs the real hook script before and after each shell
 * command and runs the command itself in between, in the repository, as an agent's shell tool does.
 */
final class StandInAgent implements AutoCloseable {

    /** Claude Code's shell prefix as {@code baton install} writes it: the link beside the hook script. */
    static final Path SHELL_WRAPPER = HookHarness.SCRIPT.resolveSibling("baton-shell");

    private static final Duration STEP_LIMIT = Duration.ofSeconds(60);

    private final String sessionId;
    private final Path repo;
    private final Path dir;
    private final Process process;
    private final OutputStream stdin;
    private final BufferedReader stdout;
    private final AtomicInteger calls = new AtomicInteger();

    private StandInAgent(String sessionId, Path repo, Path dir, Process process) {
        this.sessionId = sessionId;
        this.repo = repo;
        this.dir = dir;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts an agent process named {@code agent-NAME} for the Claude Code session {@code sessionId}. */
    static StandInAgent start(HookHarness harness, String name, String sessionId) throws IOException {
        return start(harness, name, sessionId, Map.of());
    }

    static StandInAgent start(HookHarness harness, String name, String sessionId, Map<String, String> env) throws IOException {
        return start(harness, name, sessionId, env, List.of());
    }

    /**
     * An agent on a machine where no process can make a user namespace: it runs in one of its own whose limit of
     * nested user namespaces is 0 ({@code user.max_user_namespaces}, which the owner of a namespace sets for it).
     */
    static StandInAgent startWithoutUserNamespaces(HookHarness harness, String name, String sessionId) throws IOException {
        return start(harness, name, sessionId, Map.of(), List.of("unshare", "--user", "--map-current-user", "--mount",
                "sh", "-c", "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" \"$@\""));
    }

    /** An agent working in {@code workTree} (another worktree or clone of the repository) instead of the harness's. */
    static StandInAgent startIn(HookHarness harness, String name, String sessionId, Path workTree) throws IOException {
        return start(harness, name, sessionId, Map.of(), List.of(), workTree);
    }

    private static StandInAgent start(HookHarness harness, String name, String sessionId, Map<String, String> env,
                                      List<String> launcher) throws IOException {
        return start(harness, name, sessionId, env, launcher, harness.repo().root());
    }

    private static StandInAgent start(HookHarness harness, String name, String sessionId, Map<String, String> env,
                                      List<String> launcher, Path workTree) throws IOException {
        Path dir = Files.createDirectories(harness.dir().resolve("agent-" + name));
        Path program = dir.resolve("agent-" + name);
        Files.copy(Path.of("/bin/bash").toRealPath(), program, StandardCopyOption.REPLACE_EXISTING);
        program.toFile().setExecutable(true);
        List<String> command = new java.util.ArrayList<>(launcher);
        command.addAll(List.of(program.toString(), "--noprofile", "--norc", "-s"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workTree.toFile())
                .redirectErrorStream(true);
        builder.environment().put("BATON_HOME", harness.home().dir().toString());
        builder.environment().put("BATON_HOOK_TIMEOUT", "30");
        builder.environment().putAll(env);
        return new StandInAgent(sessionId, workTree, dir, builder.start());
    }

    String sessionId() {
        return sessionId;
    }

    long pid() {
        return process.pid();
    }

    /** One hook call of this agent with {@code payload} on stdin, as the agent makes it. */
    ScriptRun hook(String event, String payload) throws IOException {
        return hook("claude", event, payload);
    }

    /** The same for the hook installed for {@code agent} (claude, copilot, codex, gemini). */
    ScriptRun hook(String agent, String event, String payload) throws IOException {
        return hook(agent, event, payload, Map.of());
    }

    /** The same with more environment for this call alone, e.g. a budget of its own (BATON_HOOK_TIMEOUT). */
    ScriptRun hook(String agent, String event, String payload, Map<String, String> env) throws IOException {
        int n = calls.incrementAndGet();
        Path in = Files.writeString(dir.resolve("payload-" + n + ".json"), payload);
        Path out = dir.resolve("stdout-" + n + ".txt");
        Path err = dir.resolve("stderr-" + n + ".txt");
        long started = System.nanoTime();
        StringBuilder assignments = new StringBuilder();
        env.forEach((name, value) -> assignments.append(name).append('=').append(quoted(value)).append(' '));
        int exit = step(assignments + quoted(HookHarness.SCRIPT.toString()) + " " + agent + " " + event + " < " + quoted(in.toString())
                + " > " + quoted(out.toString()) + " 2> " + quoted(err.toString()));
        return new ScriptRun(exit, Files.readString(out), Files.readString(err), Duration.ofNanos(System.nanoTime() - started));
    }

    /** Runs {@code command} in the repository in a child shell of this agent and returns what it printed. */
    String output(String command) throws IOException {
        Path out = dir.resolve("output-" + calls.incrementAndGet() + ".txt");
        Path script = Files.writeString(dir.resolve("command-" + calls.incrementAndGet() + ".sh"), command + "\n");
        step("( cd " + quoted(repo.toString()) + " && . " + quoted(script.toString()) + " ) > " + quoted(out.toString())
                + " 2>&1");
        return Files.readString(out);
    }

    /** Runs {@code command} in the repository in a child shell of this agent; its exit code. */
    int run(String command) throws IOException {
        Path script = Files.writeString(dir.resolve("command-" + calls.incrementAndGet() + ".sh"), command + "\n");
        return step("( cd " + quoted(repo.toString()) + " && . " + quoted(script.toString()) + " ) > /dev/null 2>&1");
    }

    /**
     * Runs {@code command} as Claude Code does with Baton's CLAUDE_CODE_SHELL_PREFIX: the wrapper
     * ({@code baton-shell COMMAND}) is started by the agent with the whole command line as one argument, and
     * runs it in the repository. {@code toolUseId}, when not null, is in its environment as Claude Code puts it.
     */
    ScriptRun runWrapped(String command, String toolUseId) throws IOException {
        return runWrapped(command, "", toolUseId == null ? Map.of() : Map.of("CLAUDE_CODE_TOOL_USE_ID", toolUseId));
    }

    /** The same with {@code input} on the command's stdin, more environment, and fd 3 open as an agent may leave it. */
    ScriptRun runWrapped(String command, String input, Map<String, String> env) throws IOException {
        Path script = Files.writeString(dir.resolve("command-" + calls.incrementAndGet() + ".sh"), command + "\n");
        return prefixed("cd " + quoted(repo.toString()) + " && . " + quoted(script.toString()), input, env);
    }

    /** The wrapper started with {@code argument}, exactly as Claude Code starts its prefix with a command line. */
    ScriptRun prefixed(String argument, String input, Map<String, String> env) throws IOException {
        int n = calls.incrementAndGet();
        Path in = Files.writeString(dir.resolve("stdin-" + n + ".txt"), input);
        Path out = dir.resolve("stdout-" + n + ".txt");
        Path err = dir.resolve("stderr-" + n + ".txt");
        // Standard error reaches the test through a pipe, as an agent reads it (the wrapper treats a pipe apart).
        StringBuilder line = new StringBuilder("{ ");
        env.forEach((name, value) -> line.append(name).append('=').append(quoted(value)).append(' '));
        line.append(quoted(SHELL_WRAPPER.toString())).append(' ').append(quoted(argument))
                .append(" 3</dev/null < ").append(quoted(in.toString())).append(" 2>&1 >&4 4>&- | cat > ")
                .append(quoted(err.toString())).append("; wrapped=${PIPESTATUS[0]}; } 4> ").append(quoted(out.toString()))
                .append("; (exit $wrapped)");
        long started = System.nanoTime();
        int exit = step(line.toString());
        return new ScriptRun(exit, Files.readString(out), Files.readString(err), Duration.ofNanos(System.nanoTime() - started));
    }

    /** The agent's Bash tool: PreToolUse, the command when it was not denied, PostToolUse. Returns PreToolUse's run. */
    ShellCall bash(String command) throws IOException {
        String toolUseId = "toolu_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        ScriptRun pre = hook("PreToolUse", payload("PreToolUse", command, toolUseId));
        if (pre.stdout().contains("\"deny\"")) {
            return new ShellCall(pre, null, -1);
        }
        int exit = run(command);
        ScriptRun post = hook("PostToolUse", payload("PostToolUse", command, toolUseId));
        return new ShellCall(pre, post, exit);
    }

    /**
     * The agent's Bash tool with Baton's shell wrapper, as Claude Code runs it once {@code baton install} set its
     * CLAUDE_CODE_SHELL_PREFIX: PreToolUse, the command through the wrapper when it was not denied, PostToolUse.
     */
    WrappedCall bashWrapped(String command) throws IOException {
        String toolUseId = "toolu_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        ScriptRun pre = hook("PreToolUse", payload("PreToolUse", command, toolUseId));
        if (pre.stdout().contains("\"deny\"")) {
            return new WrappedCall(pre, null, null);
        }
        ScriptRun run = runWrapped(command, toolUseId);
        ScriptRun post = hook("PostToolUse", payload("PostToolUse", command, toolUseId));
        return new WrappedCall(pre, run, post);
    }

    /**
     * The agent's Write tool: PreToolUse, the file written when it was not denied, PostToolUse. Returns PreToolUse's
     * run.
     */
    ScriptRun write(String relativeFile, String content) throws IOException {
        Path file = repo.resolve(relativeFile);
        String toolUseId = "toolu_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        ScriptRun pre = hook("PreToolUse", writePayload("PreToolUse", file, content, toolUseId));
        if (!pre.stdout().contains("\"deny\"")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
            hook("PostToolUse", writePayload("PostToolUse", file, content, toolUseId));
        }
        return pre;
    }

    /** The Write tool's PreToolUse alone: the edit is under way (in flight) until {@link #writeDone}. */
    ScriptRun writeStarts(String relativeFile, String content, String toolUseId) throws IOException {
        return hook("PreToolUse", writePayload("PreToolUse", repo.resolve(relativeFile), content, toolUseId));
    }

    ScriptRun writeDone(String relativeFile, String content, String toolUseId) throws IOException {
        return hook("PostToolUse", writePayload("PostToolUse", repo.resolve(relativeFile), content, toolUseId));
    }

    private String writePayload(String event, Path file, String content, String toolUseId) {
        ObjectNode payload = base(event);
        payload.put("tool_name", "Write");
        payload.putObject("tool_input").put("file_path", file.toString()).put("content", content);
        payload.put("tool_use_id", toolUseId);
        return payload.toString();
    }

    /** The Bash tool for a command that fails: PreToolUse, the command, then PostToolUseFailure (no PostToolUse). */
    ShellCall bashFailing(String command) throws IOException {
        String toolUseId = "toolu_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        ScriptRun pre = hook("PreToolUse", payload("PreToolUse", command, toolUseId));
        if (pre.stdout().contains("\"deny\"")) {
            return new ShellCall(pre, null, -1);
        }
        int exit = run(command);
        ObjectNode failure = (ObjectNode) Json.mapper().readTree(payload("PostToolUseFailure", command, toolUseId));
        failure.put("error", "Exit code " + exit);
        ScriptRun post = hook("PostToolUseFailure", failure.toString());
        return new ShellCall(pre, post, exit);
    }

    /**
     * The Bash tool with {@code run_in_background}, through the wrapper: PreToolUse, the wrapper started in the
     * background, and PostToolUse at once, as Claude Code sends it when a background command has started. The
     * command's own output goes to {@code output}.
     */
    ScriptRun bashInBackground(String command, Path output) throws IOException {
        String toolUseId = "toolu_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
        ObjectNode pre = (ObjectNode) Json.mapper().readTree(payload("PreToolUse", command, toolUseId));
        ((ObjectNode) pre.get("tool_input")).put("run_in_background", true);
        ScriptRun announced = hook("PreToolUse", pre.toString());
        Path script = Files.writeString(dir.resolve("command-" + calls.incrementAndGet() + ".sh"), command + "\n");
        String line = "cd " + quoted(repo.toString()) + " && . " + quoted(script.toString());
        step("CLAUDE_CODE_TOOL_USE_ID=" + toolUseId + " " + quoted(SHELL_WRAPPER.toString()) + " "
                + quoted(line) + " < /dev/null 2>&1 | cat > " + quoted(output.toString()) + " & true"); // a pipe, as agents read
        ObjectNode post = (ObjectNode) Json.mapper().readTree(payload("PostToolUse", command, toolUseId));
        ((ObjectNode) post.get("tool_input")).put("run_in_background", true);
        hook("PostToolUse", post.toString());
        return announced;
    }

    /** PreToolUse only: the command is announced and (when allowed) left running, its PostToolUse not yet sent. */
    ScriptRun announce(String command, String toolUseId) throws IOException {
        return hook("PreToolUse", payload("PreToolUse", command, toolUseId));
    }

    ScriptRun finish(String command, String toolUseId) throws IOException {
        return hook("PostToolUse", payload("PostToolUse", command, toolUseId));
    }

    ScriptRun stop() throws IOException {
        ObjectNode payload = base("Stop");
        payload.put("stop_hook_active", false);
        return hook("Stop", payload.toString());
    }

    ScriptRun endSession() throws IOException {
        ObjectNode payload = base("SessionEnd");
        payload.put("reason", "exit");
        return hook("SessionEnd", payload.toString());
    }

    String payload(String event, String command, String toolUseId) {
        ObjectNode payload = base(event);
        payload.put("tool_name", "Bash");
        payload.putObject("tool_input").put("command", command).put("description", "run a command");
        if (toolUseId != null) {
            payload.put("tool_use_id", toolUseId);
        }
        if (event.equals("PostToolUse")) {
            payload.putObject("tool_response").put("stdout", "").put("stderr", "").put("interrupted", false);
        }
        return payload.toString();
    }

    private ObjectNode base(String event) {
        ObjectNode payload = Json.mapper().createObjectNode();
        payload.put("session_id", sessionId);
        payload.put("transcript_path", dir.resolve("transcript.jsonl").toString());
        payload.put("cwd", repo.toString());
        payload.put("permission_mode", "default");
        payload.put("hook_event_name", event);
        return payload;
    }

    /** Sends one line to the agent's shell and waits for its exit code. */
    private int step(String line) throws IOException {
        String marker = "__baton_step_" + UUID.randomUUID() + "=";
        stdin.write((line + "; echo \"" + marker + "$?\"\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        long deadline = System.nanoTime() + STEP_LIMIT.toNanos();
        String read;
        while ((read = stdout.readLine()) != null) {
            if (read.startsWith(marker)) {
                return Integer.parseInt(read.substring(marker.length()).strip());
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        throw new IOException("the stand-in agent stopped answering (" + line + ")");
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    /** One Bash tool call through the wrapper: PreToolUse, the command's own run (null when denied), PostToolUse. */
    record WrappedCall(ScriptRun pre, ScriptRun command, ScriptRun post) {

        boolean denied() {
            return command == null;
        }

        String denialReason() {
            return pre.json().at("/hookSpecificOutput/permissionDecisionReason").asText();
        }

        String postContext() {
            return post == null || post.stdout().isBlank() ? ""
                    : post.json().at("/hookSpecificOutput/additionalContext").asText();
        }
    }

    /** One Bash tool call: its PreToolUse, its PostToolUse (null when denied) and the command's exit code. */
    record ShellCall(ScriptRun pre, ScriptRun post, int exit) {

        boolean denied() {
            return post == null;
        }

        String denialReason() {
            return pre.json().at("/hookSpecificOutput/permissionDecisionReason").asText();
        }

        String postContext() {
            return post == null || post.stdout().isBlank() ? ""
                    : post.json().at("/hookSpecificOutput/additionalContext").asText();
        }
    }
}
