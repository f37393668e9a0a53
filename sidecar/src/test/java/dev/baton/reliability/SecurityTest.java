package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarOptions;
import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import dev.baton.support.OtherUser;
import dev.baton.support.TestSidecar;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One test per security promise of the sidecar. */
class SecurityTest {

    @TempDir Path home;

    @Test
    void theSidecarListensOnLoopbackOnly() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            String port = String.format(Locale.ROOT, "%04X", sidecar.port());
            List<String> sockets = new java.util.ArrayList<>(listening(Path.of("/proc/net/tcp"), port));
            sockets.addAll(listening(Path.of("/proc/net/tcp6"), port));

            // 127.0.0.1 as IPv4, or as an IPv4-mapped IPv6 address on a dual-stack socket.
            assertThat(sockets).isNotEmpty().allSatisfy(address -> assertThat(address)
                    .isIn("0100007F:" + port, "0000000000000000FFFF00000100007F:" + port));
        }
    }

    /** Local addresses of sockets in LISTEN state (0A) on the port, as the kernel lists them. */
    private static List<String> listening(Path table, String port) throws IOException {
        if (!Files.exists(table)) {
            return List.of();
        }
        return Files.readAllLines(table).stream().skip(1)
                .map(line -> line.trim().split("\\s+"))
                .filter(fields -> fields[1].endsWith(":" + port) && fields[3].equals("0A"))
                .map(fields -> fields[1])
                .toList();
    }

    @Test
    void aDnsRebindingHostHeaderIsRefused() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            String rebinding = rawGet(sidecar, "attacker.example:" + sidecar.port());
            String loopback = rawGet(sidecar, "localhost:" + sidecar.port());

            assertThat(rebinding).startsWith("HTTP/1.1 403").contains("FORBIDDEN");
            assertThat(loopback).startsWith("HTTP/1.1 200");
        }
    }

    private static String rawGet(TestSidecar sidecar, String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", sidecar.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /v1/status HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + sidecar.token()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void noRequestWithoutTheTokenChangesAnything() {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            for (String path : List.of("/v1/sessions", "/v1/locks/acquire", "/v1/locks/release", "/v1/locks/force-release",
                    "/v1/cleanup-stale", "/v1/named-locks/acquire")) {
                var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(sidecar.base() + path))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(TestSidecar.json(
                                Map.of("session_id", "a", "files", List.of("/x"), "file", "/x", "name", "n", "pid", 1))))
                        .build();
                assertThat(sidecar.send(request).status()).as(path).isEqualTo(401);
            }
            assertThat(sidecar.get("/v1/locks").body().path("locks").size()).isZero();
            assertThat(sidecar.get("/v1/sessions").body().path("sessions").size()).isEqualTo(1);
        }
    }

    @Test
    void oneSessionCannotTakeOrReleaseFilesForAnotherWithoutItsKey() {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start(); ChildProcess elsewhere = ChildProcess.sleeping()) {
            sidecar.register("a", "cli", null);
            sidecar.register("b", "cli", null);
            sidecar.register("c", "claude-code", elsewhere.pid());
            assertThat(sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of("/r/x"))).status())
                    .isEqualTo(200);

            Map<String, Map<String, String>> impostors = Map.of(
                    "no proof", Map.of(),
                    "another session's key", Map.of(Callers.KEY_HEADER, sidecar.keyOf("b")),
                    "a made-up key", Map.of(Callers.KEY_HEADER, "k-not-a-real-key"),
                    "a process the session's agent did not start",
                    Map.of("X-Baton-Caller-Pid", Long.toString(ProcessHandle.current().pid())));
            impostors.forEach((who, proof) -> {
                for (var call : List.of(
                        Map.of("path", "/v1/locks/release", "body", Map.of("session_id", "a", "all", true)),
                        Map.of("path", "/v1/locks/release", "body", Map.of("session_id", "a", "files", List.of("/r/x"))),
                        Map.of("path", "/v1/locks/acquire", "body", Map.of("session_id", "a", "files", List.of("/r/y"))),
                        Map.of("path", "/v1/locks/acquire", "body", Map.of("session_id", "c", "files", List.of("/r/z"))))) {
                    var request = sidecar.request((String) call.get("path")).header("Content-Type", "application/json")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(TestSidecar.json(call.get("body"))));
                    proof.forEach(request::header);
                    TestSidecar.Reply reply = sidecar.send(request.build());
                    assertThat(reply.status()).as("%s, %s", who, call).isEqualTo(401);
                    assertThat(reply.errorCode()).isEqualTo("UNAUTHORIZED");
                }
            });

            assertThat(sidecar.get("/v1/locks").body().path("locks")).singleElement()
                    .satisfies(lock -> assertThat(lock.path("holder").path("session").asText()).isEqualTo("a"));
            assertThat(sidecar.postAs("a", "/v1/locks/release", Map.of("session_id", "a", "all", true)).body()
                    .path("released")).hasSize(1);
        }
    }

    @Test
    void theSidecarRefusesAHomeThatOthersCanWrite() throws Exception {
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining("writable by other users").hasMessageContaining("chmod 700");
        assertThat(home.resolve("token")).doesNotExist();
    }

    @Test
    void aNewHomeIsCreatedOwnerOnlyAndTheTokenIs0600() throws Exception {
        Path fresh = home.resolve("nested/baton");
        try (TestSidecar sidecar = TestSidecar.onHome(fresh).start()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve("token")))).isEqualTo("rw-------");
        }
    }

    @Test
    void aHomeOthersCanReadIsRefusedWithTheFixByTheSidecarAndTheCliAndLeftAsItIs() throws Exception {
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining(home + " is open to other users (rwxr-xr-x)")
                .hasMessageContaining("chmod 700 " + home);
        BatonCli.Result cli = new BatonCli(home, home).run("locks");

        assertThat(cli.exit()).isEqualTo(2);
        assertThat(cli.err()).contains("chmod 700 " + home);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home))).isEqualTo("rwxr-xr-x");
        assertThat(home.resolve("token")).doesNotExist();
    }

    @Test
    void aHomeBatonMakesIsOwnerOnlyAndEveryFileInItTooUnderUmask022() throws Exception {
        Path made = home.resolve("made");
        List<String> serve = new BatonCli(made, home).builder("serve", "--port", "0").command();
        List<String> command = new java.util.ArrayList<>(List.of("sh", "-c", "umask 022; exec \"$@\"", "sh"));
        command.addAll(serve);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(home.resolve("serve.out").toFile());
        builder.environment().put("BATON_HOME", made.toString());
        Process sidecar = builder.start();
        try {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                    .until(() -> !sidecar.isAlive() || Files.exists(made.resolve("endpoint")));
            assertThat(sidecar.isAlive()).as(Files.readString(home.resolve("serve.out"))).isTrue();

            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(made))).isEqualTo("rwx------");
            for (String file : List.of("baton.db", "baton.db-wal", "baton.db-shm", "sidecar.log", "sidecar.lock", "token",
                    "supervisor-token", "endpoint", "sidecar.pid")) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(made.resolve(file)))).as(file)
                        .isEqualTo("rw-------");
            }
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> {
                try (java.util.stream.Stream<Path> files = Files.list(made)) {
                    return files.anyMatch(file -> file.getFileName().toString().startsWith("sqlite-native-"));
                }
            });
            // native/, where JNA's library is unpacked, is there while the kernel lookup loads it beside the start.
            try (java.util.stream.Stream<Path> files = Files.list(made)) {
                for (Path file : files.toList()) {
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).as(file.toString())
                            .isEqualTo(Files.isDirectory(file) ? "rwx------" : "rw-------");
                }
            }
        } finally {
            sidecar.destroy();
            sidecar.waitFor();
        }
    }

    @Test
    void aHomeOwnedByAnotherUserIsRefused() throws Exception {
        String other = OtherUser.require();
        Path theirs = home.resolve("theirs");
        Files.createDirectory(theirs, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setOwner(theirs, theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(other));

        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(theirs), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining("belongs to " + other).hasMessageContaining("chown");
        BatonCli.Result cli = new BatonCli(theirs, home).run("locks");
        assertThat(cli.exit()).isEqualTo(2);
        assertThat(cli.err()).contains("belongs to " + other).contains("chown");
    }

    @Test
    void theDatabaseItsWalAndShmAndTheLogAreOwnerOnlyWhateverTheUmask() throws Exception {
        Files.writeString(home.resolve("sidecar.log"), "an old log\n");
        Files.setPosixFilePermissions(home.resolve("sidecar.log"), PosixFilePermissions.fromString("rw-r--r--"));
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            sidecar.postAs("a", "/v1/messages", Map.of("session_id", "a", "to", "a", "text", "private"));

            for (String file : List.of("baton.db", "baton.db-wal", "baton.db-shm", "sidecar.log", "token", "supervisor-token")) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(file)))).as(file)
                        .isEqualTo("rw-------");
            }
        }
    }

    @Test
    void anotherUserCanReadNothingInTheHome() throws Exception {
        OtherUser.require();
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            for (String file : List.of("baton.db", "baton.db-wal", "token", "supervisor-token")) {
                OtherUser.Result read = OtherUser.runAs("cat '" + home.resolve(file) + "' > /dev/null");
                assertThat(read.exit()).as("%s: %s", file, read.output()).isNotZero();
            }
        }
    }

    @Test
    void aShortTokenOrOneOthersCanReadIsRefused() throws Exception {
        Path token = home.resolve("token");
        Files.writeString(token, "abcd\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining("too short");

        Files.writeString(token, "0123456789abcdef".repeat(4) + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining("open to other users").hasMessageContaining("delete it");
    }
}
