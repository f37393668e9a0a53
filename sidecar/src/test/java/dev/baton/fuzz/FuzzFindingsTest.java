package dev.baton.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.TestSidecar;
import dev.baton.hook.HookParsing;
import dev.baton.http.Json;
import dev.baton.lock.CanonicalPath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the fuzzing found, one test per finding; each fails without its fix (the inputs are in the targets' corpora too). */
class FuzzFindingsTest {

    @TempDir Path dir;
    TestSidecar sidecar;

    @BeforeEach
    void start() throws Exception {
        sidecar = TestSidecar.in(dir).manualClock().start();
    }

    @AfterEach
    void stop() {
        sidecar.close();
    }

    @Test
    void aUrlWithControlBytesIsRefusedInTheErrorShapeAndTheConnectionIsClosedSaidSo() throws Exception {
        URI base = URI.create(sidecar.base());
        try (Socket socket = new Socket("127.0.0.1", base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /v1/m%01%00ges HTTP/1.1\r\nHost: 127.0.0.1:" + base.getPort() + "\r\nAuthorization: Bearer "
                    + sidecar.token() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = readAll(socket.getInputStream());

            String head = reply.substring(0, reply.indexOf("\r\n\r\n")).toLowerCase(java.util.Locale.ROOT);
            assertThat(head).startsWith("http/1.1 400").contains("content-type: application/json").contains("connection: close");
            String body = reply.substring(reply.indexOf("\r\n\r\n") + 4);
            assertThat(Json.mapper().readTree(body).path("error").path("code").asText()).isEqualTo("VALIDATION");
        }
        assertThat(sidecar.get("/v1/health", Map.of()).status()).isEqualTo(200);
    }

    @Test
    void aBodyNoRouteReadsLeavesTheConnectionUsableForTheNextRequest() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        byte[] body = new byte[100 * 1024];
        List<String> dropped = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            // No route answers PUT /v1/status, so nothing reads the body; the answer used to go out before it was read.
            for (HttpRequest request : List.of(
                    authorized("/v1/status").PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    authorized("/v1/health").GET().build())) {
                try {
                    http.send(request, HttpResponse.BodyHandlers.discarding());
                } catch (IOException e) {
                    dropped.add(request.method() + " " + request.uri().getPath() + ": " + e.getMessage());
                }
            }
        }

        assertThat(dropped).isEmpty();
    }

    private HttpRequest.Builder authorized(String path) {
        return HttpRequest.newBuilder(URI.create(sidecar.base() + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + sidecar.token());
    }

    @Test
    void aBodyWhoseFirstBytesLookLikeUtf32ButIsNoUtf32IsA400() {
        byte[] body = new byte[70];
        body[0] = '{'; // then NUL bytes: the parser guesses UTF-32, and the bytes after are no UTF-32
        byte[] rest = "\"session_id\":\"b\",\"files\":[\"/x\"]}".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(rest, 0, body, body.length - rest.length, rest.length);

        TestSidecar.Reply reply = sidecar.send(HttpRequest.newBuilder(URI.create(sidecar.base() + "/v1/locks/acquire"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)), Map.of());

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.errorCode()).isEqualTo("VALIDATION");
        assertThat(sidecar.get("/v1/locks", Map.of()).body().path("locks").size()).isZero();
    }

    @Test
    void anUnpairedSurrogateInTheCwdOfARegistrationIsA400() {
        TestSidecar.Reply reply = sidecar.send(HttpRequest.newBuilder(URI.create(sidecar.base() + "/v1/sessions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"session_id\":\"c\",\"cwd\":\"/home/dev/\\ud800\"}")), Map.of());

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().path("error").path("message").asText()).contains("cwd");
        assertThat(sidecar.get("/v1/sessions/c", Map.of()).status()).isEqualTo(404);
    }

    @Test
    void anUnpairedSurrogateInTheCwdOfAHookPayloadIsA400() {
        String payload = "{\"session_id\":\"s-1\",\"transcript_path\":\"/t\",\"cwd\":\"/home/dev/\\udc00shop\","
                + "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"a.txt\",\"content\":\"x\"}}";

        TestSidecar.Reply reply = sidecar.send(HttpRequest.newBuilder(URI.create(sidecar.base()
                        + "/v1/hooks?agent=claude&event=PreToolUse"))
                .POST(HttpRequest.BodyPublishers.ofString(payload)), Map.of());

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.errorCode()).isEqualTo("VALIDATION");
    }

    @Test
    void aContextLineQuotingAPatchMarkerNamesNoFile() {
        String patch = "*** Begin Patch\n*** Update File: docs/FORMAT.md\n@@\n+x\n *** Add File: quoted.txt\n"
                + "   *** Delete File: also-quoted.txt\n*** Add File: real.txt\n+y\n*** End Patch";

        assertThat(HookParsing.patchPaths(patch)).containsExactly("docs/FORMAT.md", "real.txt");
    }

    @Test
    void aPatchPathIsTrimmedAsThePatchToolsTrimIt() {
        String patch = "*** Begin Patch\n*** Add File: no-break.txt\u00a0\n+x\n*** Add File: file-separator.txt\u001c\n+y\n*** End Patch";

        assertThat(HookParsing.patchPaths(patch)).containsExactly("no-break.txt", "file-separator.txt\u001c");
    }

    @Test
    void onlyLinesInsideAPatchNameFiles() {
        String heredoc = "<<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n*** Delete File: EOF";
        String twoPatches = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\nEOF\n"
                + "*** Delete File: b.txt\napply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: c.txt\n*** End Patch\nEOF";

        assertThat(HookParsing.patchPaths(heredoc)).containsExactly("a.txt");
        assertThat(HookParsing.patchPaths(twoPatches)).containsExactly("a.txt", "c.txt");
    }

    @Test
    void anIndentedEndPatchOnThePatchsLastLineEndsTheUpdateBeforeIt() {
        String heredoc = "<<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n *** End Patch\n*** Delete File: EOF";
        String quoted = "*** Begin Patch\n*** Update File: a.txt\n@@\n *** End Patch\n*** Add File: b.txt\n+z\n*** End Patch";

        assertThat(HookParsing.patchPaths(heredoc)).containsExactly("a.txt");
        assertThat(HookParsing.patchPaths(quoted)).containsExactly("a.txt", "b.txt");
    }

    @Test
    void aFileReachedThroughASymlinkedDirectoryAndDotDotIsKeyedByTheFileTheSystemOpens() throws Exception {
        Path root = Files.createDirectories(dir.resolve("tree")).toRealPath();
        Files.createDirectories(root.resolve("real/sub"));
        Path file = Files.writeString(root.resolve("real/file.txt"), "x");
        Files.createSymbolicLink(root.resolve("deep"), Path.of("real/sub"));

        String viaLink = CanonicalPath.of("deep/../file.txt", root.toString());

        assertThat(viaLink).isEqualTo(file.toString()).isEqualTo(CanonicalPath.of(file.toString(), null));
    }

    private static String readAll(InputStream in) throws java.io.IOException {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
}
