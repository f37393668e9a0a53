package dev.baton.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.state.Ledger;
import dev.baton.support.TestSidecar;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WaitingAcquireTest {

    @TempDir
    Path dir;

    @Test
    void waitingAcquiresDoNotWakeEachOtherWhileNothingChanges() {
        try (TestSidecar baton = TestSidecar.in(dir).fixedClock().env(Map.of()).start()) {
            String holder = baton.register("holder");
            baton.acquire(holder, baton.file("X.java"), 0);
            CompletableFuture<JsonNode> first = baton.acquireInBackground(baton.register("first"), baton.file("X.java"), 60);
            CompletableFuture<JsonNode> second = baton.acquireInBackground(baton.register("second"), baton.file("X.java"), 60);
            await().until(() -> baton.modules().deadlocks().waits().size() == 2);

            Ledger ledger = baton.sidecar().baton().ledger();
            long version = ledger.version();
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> ledger.version() == version);

            baton.release(holder, baton.file("X.java"));
            CompletableFuture.anyOf(first, second).orTimeout(10, TimeUnit.SECONDS).join();
            baton.endSession("first");
            baton.endSession("second");
            CompletableFuture.allOf(first.exceptionally(e -> null), second.exceptionally(e -> null))
                    .orTimeout(10, TimeUnit.SECONDS).join();
        }
    }
}
