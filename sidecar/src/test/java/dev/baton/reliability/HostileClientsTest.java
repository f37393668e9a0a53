package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.TestSidecar;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Clients that hold connections open without finishing a request must not starve the others. */
class HostileClientsTest {

    @TempDir Path home;

    @Test
    void thousandsOfIdleAndHalfSentConnectionsDoNotStopOthersBeingServed() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            List<Socket> hostile = new ArrayList<>();
            try {
                for (int i = 0; i < 2_000; i++) {
                    Socket socket = new Socket("127.0.0.1", sidecar.port());
                    if (i % 2 == 0) {
                        // slow-loris: a request line and one header, then nothing more
                        OutputStream out = socket.getOutputStream();
                        out.write(("POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{\"session")
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    }
                    hostile.add(socket);
                }

                TestSidecar.Reply reply = sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of("/r/x")));

                assertThat(reply.status()).isEqualTo(200);
                assertThat(reply.body().path("all_acquired").asBoolean()).isTrue();
            } finally {
                for (Socket socket : hostile) {
                    socket.close();
                }
            }
            assertThat(sidecar.get("/v1/health").status()).isEqualTo(200);
        }
    }

    @Test
    void trailingGarbageAfterTheJsonObjectIsRefused() {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            TestSidecar.Reply reply = sidecar.postRawAs("a", "/v1/locks/acquire",
                    "{\"session_id\":\"a\",\"files\":[\"/r/x\"]} trailing".getBytes(StandardCharsets.UTF_8));

            assertThat(reply.status()).isEqualTo(400);
            assertThat(sidecar.get("/v1/locks").body().path("locks").size()).isZero();
        }
    }

    @Test
    void invalidUtf8InAPathIsRefusedOrKeptVerbatimButNeverA5xx() {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            byte[] prefix = "{\"session_id\":\"a\",\"files\":[\"/r/".getBytes(StandardCharsets.US_ASCII);
            byte[] suffix = "\"]}".getBytes(StandardCharsets.US_ASCII);
            byte[] body = new byte[prefix.length + 3 + suffix.length];
            System.arraycopy(prefix, 0, body, 0, prefix.length);
            body[prefix.length] = (byte) 0xC3;
            body[prefix.length + 1] = (byte) 0x28;
            body[prefix.length + 2] = (byte) 0xFF;
            System.arraycopy(suffix, 0, body, prefix.length + 3, suffix.length);

            TestSidecar.Reply reply = sidecar.postRawAs("a", "/v1/locks/acquire", body);

            assertThat(reply.status()).isLessThan(500);
            assertThat(sidecar.get("/v1/health").status()).isEqualTo(200);
        }
    }
}
