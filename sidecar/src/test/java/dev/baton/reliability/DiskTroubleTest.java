package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarOptions;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database's disk fails under a running sidecar (full, read-only, file deleted): it says so
 * clearly, refuses new locks rather than pretending, and loses nothing it acknowledged. Uses a
 * small tmpfs, so it needs root (as CI has); elsewhere it is skipped.
 */
class DiskTroubleTest {

    @TempDir Path dir;
    Path mount;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        mount = dir.resolve("disk");
        Files.createDirectories(mount);
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString()) == 0,
                "mounting a tmpfs needs root");
    }

    @AfterEach
    void unmount() throws Exception {
        run("umount", "-l", mount.toString());
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    private static Reply acquire(TestSidecar sidecar, String file) {
        return sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of(file)));
    }

    @Test
    void aFullDiskRefusesNewLocksClearlyAndKeepsTheAcknowledgedOnes() throws Exception {
        Path home = mount.resolve("home");
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            assertThat(acquire(sidecar, "/repo/before").toString()).startsWith("200");
            Path filler = mount.resolve("filler");
            fill(filler);

            Reply refused = null;
            for (int i = 0; i < 5_000 && refused == null; i++) {
                Reply reply = acquire(sidecar, "/repo/" + "x".repeat(200) + i);
                if (reply.status() != 200) {
                    refused = reply;
                }
            }

            assertThat(refused).as("the disk never filled").isNotNull();
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.errorCode()).isEqualTo("STORAGE");
            assertThat(refused.body().path("error").path("message").asText()).contains("nothing of this request was applied");
            assertThat(sidecar.get("/v1/health").status()).isEqualTo(200);
            Files.delete(filler);
            assertThat(acquire(sidecar, "/repo/after").toString()).startsWith("200");
            sidecar.restart();
            assertThat(sidecar.get("/v1/locks/check?file=/repo/before").body().path("held").asBoolean()).isTrue();
            assertThat(sidecar.get("/v1/locks/check?file=/repo/after").body().path("held").asBoolean()).isTrue();
        }
    }

    private static void fill(Path filler) throws IOException {
        byte[] block = new byte[64 * 1024];
        try (var out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // the tmpfs is full now, which is the point
        }
    }

    @Test
    void aReadOnlyHomeIsAClearStartupErrorAndLosesNothing() throws Exception {
        Path home = mount.resolve("home");
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            assertThat(acquire(sidecar, "/repo/before").toString()).startsWith("200");
        }
        assertThat(run("mount", "-o", "remount,ro", mount.toString())).isZero();

        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining("not writable").hasMessageContaining(home.toString());

        assertThat(run("mount", "-o", "remount,rw", mount.toString())).isZero();
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            assertThat(sidecar.get("/v1/locks/check?file=/repo/before").body().path("held").asBoolean()).isTrue();
        }
    }

    @Test
    void aDeletedDatabaseFileIsReportedInsteadOfWritingIntoTheVoid() throws Exception {
        Path home = mount.resolve("home");
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            assertThat(acquire(sidecar, "/repo/before").toString()).startsWith("200");
            Files.delete(home.resolve("baton.db"));

            Reply refused = acquire(sidecar, "/repo/during");

            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.body().path("error").path("message").asText()).contains("deleted");
            assertThat(sidecar.get("/v1/locks/check?file=/repo/during").body().path("held").asBoolean()).isFalse();
        }
    }
}
