package dev.baton.installer.doctor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.installer.config.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Runs an installed hook command the way its agent runs it ({@code /bin/sh -c COMMAND}, a payload on stdin, this
 * process as the agent) with an edit of a scratch file outside any repository, and says whether Baton allowed it.
 * The session it opened is ended again through the agent's own session-end hook.
 */
public final class HookProbe {

    /** What the probe saw: allowed or not, and in words why. */
    public record Outcome(boolean allowed, String description) {
    }

    /** An agent's hook payloads for the probe, and what else it sets for its hooks. */
    public interface Payloads {

        /** The before-tool payload of a write of {@code file}. */
        String edit(String session, Path cwd, Path file);

        /** The session-end payload. */
        default String end(String session, Path cwd) {
            return hookPayload(session, cwd, "SessionEnd").put("reason", "other").toString();
        }

        /** Variables the agent sets for its hook commands. */
        default Map<String, String> environment() {
            return Map.of();
        }
    }

    private final Map<String, String> environment;

    public HookProbe(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * @param editCommand the command registered for the agent's before-tool event
     * @param endCommand  the command registered for its session-end event, if any
     */
    public Outcome probe(Payloads agent, String editCommand, Optional<String> endCommand) {
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("baton-doctor-");
            String session = "baton-doctor-" + UUID.randomUUID();
            Path file = scratch.resolve("probe.txt");
            ProbeRun edit = run(agent, editCommand, agent.edit(session, scratch, file), scratch);
            if (endCommand.isPresent()) {
                run(agent, endCommand.get(), agent.end(session, scratch), scratch);
            }
            if (edit.timedOut()) {
                return new Outcome(false, "exit -1: no answer within " + ProbeRun.LIMIT.toSeconds() + " s");
            }
            if (edit.exit() != 0) {
                return new Outcome(false, "exit " + edit.exit() + ": "
                        + ProbeRun.firstLine(edit.err().isBlank() ? edit.out() : edit.err()));
            }
            if (edit.out().contains("\"deny\"") || edit.out().contains("\"block\"")) {
                return new Outcome(false, "denied: " + ProbeRun.firstLine(edit.out()));
            }
            return new Outcome(true, "an edit of a scratch file was allowed");
        } catch (IOException e) {
            return new Outcome(false, "could not run it: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(false, "interrupted");
        } finally {
            deleteQuietly(scratch);
        }
    }

    /** The hook command as the agent runs it: {@code /bin/sh -c COMMAND} in the project, the payload on stdin. */
    private ProbeRun run(Payloads agent, String command, String payload, Path directory)
            throws IOException, InterruptedException {
        Map<String, String> env = new HashMap<>(environment);
        env.putAll(agent.environment());
        return ProbeRun.run(List.of("/bin/sh", "-c", command), env, directory, payload.getBytes(StandardCharsets.UTF_8));
    }

    /** The fields Claude Code's hook payloads begin with, which Codex and Gemini CLI copied. */
    public static ObjectNode hookPayload(String session, Path cwd, String event) {
        return JsonText.MAPPER.createObjectNode().put("session_id", session)
                .put("transcript_path", cwd.resolve("transcript.jsonl").toString())
                .put("cwd", cwd.toString()).put("hook_event_name", event);
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a scratch directory in the temp dir; nothing depends on it being gone
        }
    }
}
