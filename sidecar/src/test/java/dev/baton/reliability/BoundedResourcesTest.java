package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.TestSidecar;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Malformed, slow and large requests from a client holding the token: each is a 4xx, and none stops the others. */
class BoundedResourcesTest {

    @TempDir Path home;

    @Test
    void aDeclaredLengthAboveTheLimitIsRefusedBeforeAnyOfItIsReadEvenWithExpectContinue() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); Socket socket = new Socket("127.0.0.1", sidecar.port())) {
            socket.setSoTimeout(10_000);
            send(socket, "POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + sidecar.token()
                    + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 9999999999\r\n\r\n");

            String answer = readHead(socket);

            assertThat(answer).startsWith("HTTP/1.1 413").doesNotContain("100 Continue");
        }
    }

    @Test
    void aBodyShorterThanItsLengthAndAnHttp09RequestAre4xx() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            try (Socket socket = new Socket("127.0.0.1", sidecar.port())) {
                socket.setSoTimeout(60_000);
                send(socket, "POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + sidecar.token()
                        + "\r\nX-Baton-Key: " + sidecar.keyOf("a") + "\r\nContent-Length: 100\r\n\r\n{\"session_id\":\"a\"");
                socket.shutdownOutput();
                assertThat(readHead(socket)).matches("(?s)HTTP/1.1 4\\d\\d.*");
            }
            try (Socket socket = new Socket("127.0.0.1", sidecar.port())) {
                socket.setSoTimeout(60_000);
                send(socket, "GET /v1/health\r\n\r\n");
                assertThat(readHead(socket)).matches("(?s)HTTP/1.1 4\\d\\d.*");
            }
            assertThat(sidecar.get("/v1/locks").body().path("locks")).isEmpty();
        }
    }

    @Test
    void hundredsOfTricklingBodiesDoNotDelayAnotherClient() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            List<Socket> trickling = new ArrayList<>();
            ExecutorService feeder = Executors.newSingleThreadExecutor();
            try {
                for (int i = 0; i < 300; i++) {
                    Socket socket = new Socket("127.0.0.1", sidecar.port());
                    send(socket, "POST /v1/locks/acquire HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            + sidecar.token() + "\r\nContent-Length: 100000\r\n\r\n{");
                    trickling.add(socket);
                }
                // One byte a connection every 100 ms, for at most 20 s: the load ends by itself.
                Future<?> feeding = feeder.submit(() -> {
                    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
                        for (Socket socket : trickling) {
                            try {
                                socket.getOutputStream().write(' ');
                            } catch (IOException cutOff) {
                                // the sidecar closed it: that is the point
                            }
                        }
                        try {
                            Thread.sleep(100); // the load generator's pace, not a wait for the system under test
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });

                long started = System.nanoTime();
                TestSidecar.Reply reply = sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of("/r/x")));
                Duration took = Duration.ofNanos(System.nanoTime() - started);

                assertThat(reply.status()).isEqualTo(200);
                assertThat(took).isLessThan(Duration.ofSeconds(5));
                feeding.cancel(true);
            } finally {
                feeder.shutdownNow();
                for (Socket socket : trickling) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void manyConcurrentLargeBodiesAreAnsweredWithoutA5xxAndTheSidecarKeepsServing() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            byte[] big = new byte[64 << 20];
            java.util.Arrays.fill(big, (byte) ' ');
            big[0] = '{';
            big[big.length - 1] = '}';
            ExecutorService senders = Executors.newFixedThreadPool(12);
            try {
                List<Future<Integer>> statuses = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                    statuses.add(senders.submit(() -> {
                        try {
                            return sidecar.postRawAs("a", "/v1/locks/release", big).status();
                        } catch (java.io.UncheckedIOException refusedMidBody) {
                            // A body refused before it is read ends its connection once Jetty gives up draining it;
                            // the client, still sending, may then lose the 429 to the reset. Refused all the same.
                            return 0;
                        }
                    }));
                }
                int answered = 0;
                for (Future<Integer> status : statuses) {
                    int code = status.get(120, TimeUnit.SECONDS);
                    if (code != 0) {
                        assertThat(code).isBetween(400, 499);
                        answered++;
                    }
                }
                assertThat(answered).as("bodies read and refused as bad input, or refused for the budget").isPositive();
            } finally {
                senders.shutdownNow();
            }
            assertThat(sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of("/r/x"))).status())
                    .isEqualTo(200);
        }
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** The response's head (up to the blank line), or what arrived before the connection closed. */
    private static String readHead(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        try {
            for (int c; (c = in.read()) >= 0; ) {
                head.append((char) c);
                if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            head.append("<timed out>");
        }
        return head.toString();
    }
}
