package dev.baton.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Works out which session a CLI call acts for: an explicit {@code --session}; else the agent whose
 * process is an ancestor of this one (the CLI run from an agent's shell); else a session of the
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

    static Optional<String> agentAncestor(SidecarClient client) {
        JsonNode sessions = client.get("/v1/sessions").path("sessions");
        Optional<ProcessHandle> process = ProcessHandle.current().parent();
        while (process.isPresent()) {
            ProcessHandle handle = process.get();
            Instant started = handle.info().startInstant().orElse(null);
            for (JsonNode session : sessions) {
                if (!"cli".equals(session.path("agent").asText()) && session.path("pid").asLong(-1) == handle.pid()
                        && sameStart(session.path("pid_start").asText(null), started)) {
                    return Optional.of(session.path("id").asText());
                }
            }
            process = handle.parent();
        }
        return Optional.empty();
    }

    private static boolean sameStart(String recorded, Instant actual) {
        if (recorded == null || actual == null) {
            return true;
        }
        return Duration.between(Instant.parse(recorded), actual).abs().compareTo(START_TOLERANCE) <= 0;
    }

    /** Who the caller is without registering anything: explicit, an agent ancestor, or its shell. */
    static String identify(SidecarClient client, String explicit) {
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        return agentAncestor(client).orElseGet(CallerSession::shellSessionId);
    }

    private static ProcessHandle shell() {
        return ProcessHandle.current().parent().orElse(ProcessHandle.current());
    }

    static String shellSessionId() {
        ProcessHandle shell = shell();
        long started = shell.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
        return "cli-" + shell.pid() + "-" + started;
    }

    private static String shellSession(SidecarClient client) {
        ProcessHandle shell = shell();
        String id = shellSessionId();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", id);
        body.put("agent", "cli");
        body.put("pid", shell.pid());
        body.put("host", hostName());
        body.put("cwd", System.getProperty("user.dir"));
        client.post("/v1/sessions", body, Duration.ofSeconds(10));
        return id;
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
