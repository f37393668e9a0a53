package dev.baton.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.home.BatonHome;
import dev.baton.lock.LockRows;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarOptions;
import dev.baton.support.SidecarProcess;
import dev.baton.support.TestSidecar;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sidecar never starts silently empty: a database that lost what an earlier sidecar held stops the start. */
class StateLossTest {

    @TempDir Path home;

    @Test
    void aDatabaseTruncatedToNothingAfterARunIsRefusedUntilEmptyStateIsAccepted() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of("/r/x")));
        }
        try (FileChannel db = FileChannel.open(home.resolve("baton.db"), StandardOpenOption.WRITE)) {
            db.truncate(0);
        }
        Files.deleteIfExists(home.resolve("baton.db-wal"));

        assertThatThrownBy(() -> Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0)))
                .isInstanceOf(IOException.class).hasMessageContaining(home.resolve("baton.db") + " is empty")
                .hasMessageContaining("baton serve --accept-empty-state");

        try (Sidecar accepted = Sidecar.start(SidecarOptions.defaults(new BatonHome(home), 0).acceptingEmptyState())) {
            int locks = accepted.baton().ledger().read(world -> world.count(LockRows.FILES));
            assertThat(locks).isZero();
        }
    }

    @Test
    void aCleanRestartAndAKilledSidecarWithItsWalStartAsBefore() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            sidecar.register("a", "cli", null);
            sidecar.postAs("a", "/v1/locks/acquire", Map.of("session_id", "a", "files", List.of("/r/x")));
            sidecar.restart();
            assertThat(sidecar.get("/v1/locks").body().path("locks")).hasSize(1);
        }
        try (SidecarProcess killed = SidecarProcess.start(home)) {
            killed.kill();
        }
        try (TestSidecar again = TestSidecar.onHome(home).start()) {
            assertThat(again.get("/v1/locks").body().path("locks")).hasSize(1);
        }
    }
}
