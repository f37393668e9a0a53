package dev.baton.server;

import dev.baton.cli.BatonCommand;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.store.SqliteLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Run once with {@code -XX:ArchiveClassesAtExit} (by the installer's {@code ClassDataArchive}, for the
 * build's jar and for an installed one) to make the class-data archive the launchers start the sidecar
 * with: it parses a {@code serve} command line, starts a sidecar on a temporary home and port, serves the
 * requests agents send most (health, a session, a lock taken and freed, a hook call), and stops, so the
 * classes of start-up and of those requests are in the archive.
 */
public final class StartupTraining {

    private StartupTraining() {
    }

    public static void main(String[] args) throws IOException {
        // `baton serve` builds its own command line; the other commands build the whole tree.
        BatonCommand.serveCommandLine().parseArgs("--port", "0");
        BatonCommand.commandLine().parseArgs("status");
        Path dir = Files.createTempDirectory("baton-training");
        BatonHome home = new BatonHome(dir);
        SqliteLibrary.choose(home).load(); // as `baton serve` does
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of)) {
            String base = "http://127.0.0.1:" + sidecar.port();
            String token = home.ensureToken();
            String file = dir.resolve("work/example.txt").toString();
            expect("GET", base + "/v1/health", token, null);
            String registered = expect("POST", base + "/v1/sessions", token, "{\"session_id\":\"training\",\"agent\":\"api\"}");
            String key = Json.mapper().readTree(registered).path("key").asText();
            String files = "{\"session_id\":\"training\",\"files\":[\"" + file + "\"]}";
            expect("POST", base + "/v1/locks/acquire", token, files, key);
            expect("GET", base + "/v1/locks", token, null);
            expect("POST", base + "/v1/locks/release", token, files, key);
            // With pid and ppid, as the hook script sends them: the sidecar then asks the kernel for the connection's
            // process, so the classes of that lookup (JNA's among them) are archived too.
            ProcessHandle self = ProcessHandle.current();
            expect("POST", base + "/v1/hooks?agent=claude&event=PreToolUse&pid=" + self.pid() + "&ppid="
                    + self.parent().map(ProcessHandle::pid).orElse(0L), token, """
                    {"session_id":"training-hook","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Edit",
                     "tool_input":{"file_path":"%s","old_string":"a","new_string":"b"}}""".formatted(dir, file));
            expect("GET", base + "/v1/status", token, null);
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static String expect(String method, String url, String token, String body) {
        return expect(method, url, token, body, null);
    }

    /** Sends one request (as the session whose key is given, if any) and returns the reply, which must be a 2xx. */
    private static String expect(String method, String url, String token, String body, String key) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setRequestMethod(method);
            connection.setRequestProperty("Authorization", "Bearer " + token);
            if (key != null) {
                connection.setRequestProperty(Callers.KEY_HEADER, key);
            }
            if (body != null) {
                connection.setDoOutput(true);
                connection.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body.getBytes(StandardCharsets.UTF_8));
                }
            }
            int answered = connection.getResponseCode();
            try (InputStream in = answered < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                String reply = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (answered / 100 != 2) {
                    throw new IllegalStateException(method + " " + url + " answered " + answered + ": " + reply);
                }
                return reply;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
