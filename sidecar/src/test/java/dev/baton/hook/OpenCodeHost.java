package dev.baton.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.http.Json;
import dev.baton.support.LineProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * A real, long-lived node process standing in for OpenCode: it loads Baton's real plug-in ({@code
 * hook-scripts/baton-opencode.js}, with the hook script's path filled in as {@code baton install} fills it in) and
 * calls its hooks as OpenCode 1.18 calls them, in the repository; it runs shell commands as OpenCode's bash tool does.
 * The plug-in runs inside it, so this process is the agent the sidecar sees.
 */
final class OpenCodeHost implements AutoCloseable {

    static final Path PLUGIN = HookHarness.SCRIPT.resolveSibling("baton-opencode.js");
    private static final Path HOST = Path.of("src", "test", "resources", "opencode", "plugin-host.mjs").toAbsolutePath();

    private final LineProcess process;
    private final String sessionId;
    private final JsonNode ready;

    private OpenCodeHost(LineProcess process, String sessionId) throws InterruptedException {
        this.process = process;
        this.sessionId = sessionId;
        this.ready = parse(process.nextLine("the plug-in loaded"));
    }

    /** OpenCode for the session {@code sessionId}, with {@code env} over the harness's script environment. */
    static OpenCodeHost start(HookHarness harness, String sessionId, Map<String, String> env) throws IOException, InterruptedException {
        Path plugin = harness.dir().resolve("plugins-" + UUID.randomUUID()).resolve("baton.js");
        Files.createDirectories(plugin.getParent());
        Files.writeString(plugin, Files.readString(PLUGIN).replace("\"@BATON_HOOK_SCRIPT@\"",
                Json.mapper().writeValueAsString(HookHarness.SCRIPT.toString())));
        ProcessBuilder builder = new ProcessBuilder("node", HOST.toString(), plugin.toString(),
                harness.repo().root().toString()).directory(harness.repo().root().toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        harness.scriptEnvironment(builder.environment(), env);
        return new OpenCodeHost(new LineProcess(builder.start(), "opencode"), sessionId);
    }

    static OpenCodeHost start(HookHarness harness, String sessionId) throws IOException, InterruptedException {
        return start(harness, sessionId, Map.of());
    }

    long pid() {
        return ready.get("ready").asLong();
    }

    /** The hooks the plug-in gave OpenCode. */
    JsonNode hooks() {
        return ready.get("hooks");
    }

    /** tool.execute.before: the arguments the tool would run with, or {@code {"error": …}} when the plug-in threw. */
    JsonNode before(String tool, String callId, ObjectNode args) throws IOException, InterruptedException {
        ObjectNode ask = Json.mapper().createObjectNode().put("before", tool).put("session", sessionId).put("call", callId);
        ask.set("args", args);
        return exchange(ask);
    }

    /** tool.execute.after, with the tool's own output: the output the model would read. */
    String after(String tool, String callId, ObjectNode args, String output) throws IOException, InterruptedException {
        ObjectNode ask = Json.mapper().createObjectNode().put("after", tool).put("session", sessionId).put("call", callId)
                .put("output", output);
        ask.set("args", args);
        return exchange(ask).path("output").asText();
    }

    /** The turn ended: OpenCode's session.idle event. */
    void idle() throws IOException, InterruptedException {
        ObjectNode ask = Json.mapper().createObjectNode().put("event", "session.idle");
        ask.putObject("properties").put("sessionID", sessionId);
        exchange(ask);
    }

    /** A command run as OpenCode's bash tool runs one: bash -c, in the repository, as a child of this process. */
    ScriptRun run(String command) throws IOException, InterruptedException {
        JsonNode ran = exchange(Json.mapper().createObjectNode().put("run", command));
        return new ScriptRun(ran.path("exit").asInt(-1), ran.path("stdout").asText(), ran.path("stderr").asText(),
                java.time.Duration.ZERO);
    }

    static ObjectNode write(Path file, String content) {
        return Json.mapper().createObjectNode().put("filePath", file.toString()).put("content", content);
    }

    static ObjectNode bash(String command) {
        return Json.mapper().createObjectNode().put("command", command).put("description", "run it");
    }

    private JsonNode exchange(ObjectNode ask) throws IOException, InterruptedException {
        process.tell(Json.mapper().writeValueAsString(ask));
        return parse(process.nextLine("the plug-in's answer to " + ask));
    }

    private static JsonNode parse(String line) {
        try {
            return Json.mapper().readTree(line.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("not JSON from the OpenCode stand-in: " + line, e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
