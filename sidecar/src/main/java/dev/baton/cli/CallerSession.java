package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Works out which session a CLI call acts for: an explicit {@code --session}; else the agent whose
 * process is an ancestor of this one (the CLI run from an agent's shell; if that process runs several sessions, the
 * one its environment names); else a session of the
 * shell that ran it, so locks taken by hand last as long as that terminal.
 */
final class CallerSession {

    private static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    private CallerSession() {
    }

    static String resolve(SidecarClient client, String explicit) {
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        return agentAncestor(client).orElseGet(() -> shellSession(client));
    }

    /**
     * Variables naming an agent's conversation (the hook's {@code session_id}). Claude Code 2.1 and Codex 0.169 set
     * theirs for every command they run; Gemini CLI 0.61 sets its own only for hooks (a user may export it) and
     * Copilot CLI 1.0 sets none.
     */
    static final List<String> SESSION_VARIABLES = List.of("CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID", "GEMINI_SESSION_ID");

    static Optional<String> agentAncestor(SidecarClient client) {
        return agentAncestor(client, System.getenv());
    }

    /**
     * The session of the nearest agent process above this one. One agent process may host several sessions (a
     * resumed conversation, a second conversation in one IDE window): then the environment says which, or the
     * caller must.
     */
    static Optional<String> agentAncestor(SidecarClient client, Map<String, String> env) {
        JsonNode sessions = client.get("/v1/sessions").path("sessions");
        Optional<ProcessHandle> process = ProcessHandle.current().parent();
        while (process.isPresent()) {
            ProcessHandle handle = process.get();
            Instant started = handle.info().startInstant().orElse(null);
            List<JsonNode> hosted = new ArrayList<>();
            for (JsonNode session : sessions) {
                if (!"cli".equals(session.path("agent").asText()) && session.path("pid").asLong(-1) == handle.pid()
                        && sameStart(session.path("pid_start").asText(null), started)) {
                    hosted.add(session);
                }
            }
            if (hosted.size() == 1) {
                return Optional.of(hosted.get(0).path("id").asText());
            }
            if (hosted.size() > 1) {
                return Optional.of(namedByEnvironment(hosted, env, handle.pid()));
            }
            process = handle.parent();
        }
        return Optional.empty();
    }

    private static String namedByEnvironment(List<JsonNode> hosted, Map<String, String> env, long pid) {
        List<String> ids = hosted.stream().map(session -> session.path("id").asText()).toList();
        for (String variable : SESSION_VARIABLES) {
            String named = env.get(variable);
            if (named != null && ids.contains(named.trim())) {
                return named.trim();
            }
        }
        throw new CliException("this shell belongs to " + hosted.get(0).path("agent").asText() + " process " + pid
                + ", which runs " + ids.size() + " sessions (" + String.join(", ", ids) + ") and the environment names"
                + " none of them (" + String.join(", ", SESSION_VARIABLES) + "); say which with --session ID");
    }

    private static boolean sameStart(String recorded, Instant actual) {
        if (recorded == null || actual == null) {
            return true;
        }
        return Duration.between(Instant.parse(recorded), actual).abs().compareTo(START_TOLERANCE) <= 0;
    }

    /**
     * Who the caller is without registering anything: explicit, an agent ancestor, or its shell's session if it has
     * one; null when it has none.
     */
    static String identify(SidecarClient client, String explicit) {
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        return agentAncestor(client).or(() -> shellSessionIfAny(client)).orElse(null);
    }

    private static ProcessHandle shell() {
        return ProcessHandle.current().parent().orElse(ProcessHandle.current());
    }

    /** The CLI session registered for this shell, found by its process (pid and start instant). */
    private static Optional<String> shellSessionIfAny(SidecarClient client) {
        ProcessHandle shell = shell();
        Instant started = shell.info().startInstant().orElse(null);
        for (JsonNode session : client.get("/v1/sessions").path("sessions")) {
            if ("cli".equals(session.path("agent").asText()) && session.path("pid").asLong(-1) == shell.pid()
                    && sameStart(session.path("pid_start").asText(null), started)) {
                return Optional.of(session.path("id").asText());
            }
        }
        return Optional.empty();
    }

    /**
     * This shell's CLI session: the sidecar finds the one registered for the shell's process, or registers one under
     * an id no other process can guess and take first.
     */
    private static String shellSession(SidecarClient client) {
        ProcessHandle shell = shell();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("agent", "cli");
        body.put("pid", shell.pid());
        body.put("host", hostName());
        body.put("cwd", System.getProperty("user.dir"));
        return client.post("/v1/sessions", body, Duration.ofSeconds(10)).path("session").path("id").asText();
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
