package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.home.BatonHome;
import dev.baton.http.Callers;
import dev.baton.http.Json;
import dev.baton.lock.LockRows;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarOptions;
import dev.baton.support.BatonCli;
import dev.baton.support.SidecarProcess;
import dev.baton.support.TestSidecar;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A sidecar never starts with less than the last one held without saying so. The damage is made as it happens: a
 * real sidecar process is killed with SIGKILL (its log then holds its last commits) or stopped cleanly, and its files
 * are then deleted, garbled, cut short, edited with another SQLite client or made read-only. The next
 * {@code baton serve} refuses, naming the file and the fix, and changes nothing; {@code --accept-empty-state} starts.
 */
class DamagedStateTest {

    static final int LOCKS = 8;

    @TempDir Path home;

    enum WalDamage {
        DELETED, HEADER_GARBLED, MIDDLE_GARBLED, CUT_IN_HALF;

        void applyTo(Path wal) throws IOException {
            long size = Files.size(wal);
            switch (this) {
                case DELETED -> Files.delete(wal);
                case HEADER_GARBLED -> overwrite(wal, 0, 32);
                case MIDDLE_GARBLED -> overwrite(wal, size / 2, 64);
                case CUT_IN_HALF -> {
                    try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE)) {
                        channel.truncate(size / 2);
                    }
                }
            }
        }

        private static void overwrite(Path file, long at, int length) throws IOException {
            byte[] noise = new byte[length];
            new Random(7).nextBytes(noise);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.write(java.nio.ByteBuffer.wrap(noise), at);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(WalDamage.class)
    void aKilledSidecarsLogLostOrDamagedIsRefusedUntilEmptyStateIsAccepted(WalDamage damage) throws Exception {
        killWithLocks();
        Path wal = home.resolve("baton.db-wal");
        assertThat(Files.size(wal)).as("the killed sidecar's commits are in its log").isPositive();
        damage.applyTo(wal);
        Map<Path, String> before = digests();

        BatonCli.Result refused = serve();

        assertThat(refused.exit()).as(refused.err()).isEqualTo(2);
        assertThat(refused.err()).contains("refusing to start").contains(wal.toString())
                .contains("did not stop cleanly").contains("baton serve --accept-empty-state");
        assertThat(digests()).as("nothing changed on disk").isEqualTo(before);

        try (Sidecar accepted = Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0).acceptingEmptyState())) {
            assertThat((int) accepted.baton().ledger().read(world -> world.count(LockRows.FILES))).isLessThan(LOCKS);
        }
    }

    @Test
    void aKilledSidecarWithItsLogIntactStartsWithEveryLock() throws Exception {
        killWithLocks();

        try (TestSidecar again = TestSidecar.onHome(home).start()) {
            assertThat(again.get("/v1/locks").body().path("locks")).hasSize(LOCKS);
        }
        try (TestSidecar cleanlyRestarted = TestSidecar.onHome(home).start()) {
            assertThat(cleanlyRestarted.get("/v1/locks").body().path("locks")).hasSize(LOCKS);
        }
    }

    @Test
    void rowsDeletedByAnotherClientAfterACleanStopAreRefusedThoughTheFileKeepsItsSize() throws Exception {
        stopCleanlyWithLocks();
        Path db = home.resolve("baton.db");
        long size = Files.size(db);
        sql("DELETE FROM locks WHERE file IN (SELECT file FROM locks LIMIT 3)");
        assertThat(Files.size(db)).isEqualTo(size);
        Map<Path, String> before = digests();

        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining(db.toString())
                .hasMessageContaining("holds " + (LOCKS - 3) + " locks where it had " + LOCKS)
                .hasMessageContaining("baton serve --accept-empty-state");
        assertThat(digests()).isEqualTo(before);

        try (Sidecar accepted = Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0).acceptingEmptyState())) {
            assertThat((int) accepted.baton().ledger().read(world -> world.count(LockRows.FILES))).isEqualTo(LOCKS - 3);
        }
        try (TestSidecar next = TestSidecar.onHome(home).start()) {
            assertThat(next.get("/v1/locks").body().path("locks")).hasSize(LOCKS - 3);
        }
    }

    @Test
    void aDatabaseDeletedAfterASidecarRanIsRefused() throws Exception {
        stopCleanlyWithLocks();
        Files.delete(home.resolve("baton.db"));

        BatonCli.Result refused = serve();

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains(home.resolve("baton.db") + " is missing, but a sidecar ran in")
                .contains("--accept-empty-state");
    }

    /**
     * The first start in a home was killed after it took {@code sidecar.lock} and before its database existed, as
     * when two hooks start a sidecar at once and the one that won is killed: the next start makes the database.
     */
    @Test
    void aFirstStartKilledBeforeItsDatabaseExistedLeavesNothingThatStopsTheNext() throws Exception {
        Files.createFile(home.resolve("sidecar.lock"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));

        try (TestSidecar next = TestSidecar.onHome(home).start()) {
            assertThat(next.get("/v1/locks").body().path("locks")).isEmpty();
        }
        assertThat(Files.readString(home.resolve("sidecar.lock"))).as("marked once the database exists").isNotEmpty();
    }

    @Test
    void aDatabaseThatLostItsTablesIsRefused() throws Exception {
        stopCleanlyWithLocks();
        sql("DROP TABLE locks; DROP TABLE sessions; DROP TABLE named_locks");

        BatonCli.Result refused = serve();

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains(home.resolve("baton.db") + " has lost its tables")
                .contains("--accept-empty-state");
    }

    @Test
    void aKilledSidecarsDatabaseEditedByAnotherClientIsRefused() throws Exception {
        killWithLocks();
        // Opening it recovers the log into the database and removes it: the sidecar can no longer tell what was lost.
        sql("DELETE FROM locks");

        BatonCli.Result refused = serve();

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("baton.db-wal").contains("is missing").contains("--accept-empty-state");
    }

    @Test
    void aReadOnlyDatabaseOrHomeIsRefusedWithTheChmodThatFixesIt() throws Exception {
        stopCleanlyWithLocks();
        Path db = home.resolve("baton.db");
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("r--------"));

        BatonCli.Result refused = serve();

        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains(db + " is read-only (r--------)").contains("chmod u+w " + db);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db))).isEqualTo("r--------");

        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("r-x------"));
        try {
            BatonCli.Result homeRefused = serve();
            assertThat(homeRefused.exit()).isEqualTo(2);
            assertThat(homeRefused.err()).contains(home + " is read-only").contains("chmod u+rwx " + home);
        } finally {
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        }
        try (TestSidecar fixed = TestSidecar.onHome(home).start()) {
            assertThat(fixed.get("/v1/locks").body().path("locks")).hasSize(LOCKS);
        }
    }

    @Test
    void doctorReportsADamagedStateWithItsFix() throws Exception {
        killWithLocks();
        Files.delete(home.resolve("baton.db-wal"));
        Path user = Files.createDirectories(home.resolve("user"));

        BatonCli.Result doctor = new BatonCli(home, user).run(Map.of("HOME", user.toString(), "BATON_HOOK_TIMEOUT", "5"),
                "doctor");

        assertThat(doctor.exit()).isEqualTo(1);
        assertThat(doctor.out()).containsPattern("✘ state +the last sidecar in " + home + " did not stop cleanly")
                .contains("fix: Restore baton.db-wal").contains("baton serve --accept-empty-state");
    }

    /** A real sidecar process takes {@link #LOCKS} locks after its start and is killed: they are in its log only. */
    private void killWithLocks() throws Exception {
        try (SidecarProcess sidecar = SidecarProcess.start(home)) {
            takeLocks(sidecar.port(), sidecar.token());
            sidecar.kill();
        }
    }

    private void stopCleanlyWithLocks() throws Exception {
        try (SidecarProcess sidecar = SidecarProcess.start(home)) {
            takeLocks(sidecar.port(), sidecar.token());
        }
        assertThat(home.resolve("sidecar.pid")).doesNotExist();
    }

    private static void takeLocks(int port, String token) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        JsonNode registered = post(http, port, token, null, "/v1/sessions", Map.of("session_id", "a", "agent", "cli"));
        String key = registered.path("key").asText();
        for (int i = 0; i < LOCKS; i++) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("session_id", "a");
            body.put("files", List.of("/repo/file-" + i));
            assertThat(post(http, port, token, key, "/v1/locks/acquire", body).path("all_acquired").asBoolean()).isTrue();
        }
    }

    private static JsonNode post(HttpClient http, int port, String token, String key, String path, Object body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body)));
        if (key != null) {
            request.header(Callers.KEY_HEADER, key);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isLessThan(300);
        return Json.mapper().readTree(response.body());
    }

    /** {@code baton serve} in a process of its own, as a user or a hook starts it; it must end by itself here. */
    private BatonCli.Result serve() {
        return new BatonCli(home, home).run("serve", "--port", "0");
    }

    private void sql(String statements) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("baton.db"));
             Statement statement = connection.createStatement()) {
            for (String sql : statements.split(";")) {
                statement.execute(sql);
            }
        }
    }

    /** The database and its log, byte for byte. */
    private Map<Path, String> digests() throws Exception {
        Map<Path, String> digests = new LinkedHashMap<>();
        for (Path file : IntStream.range(0, 2).mapToObj(i -> home.resolve(i == 0 ? "baton.db" : "baton.db-wal")).toList()) {
            digests.put(file, Files.exists(file)
                    ? HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)))
                    : "missing");
        }
        return digests;
    }
}
