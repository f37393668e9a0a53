package dev.baton.dashboard.viewmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.FxRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import javafx.application.Platform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class UpdateBatcherTest {

    private static final Duration RENDERING = Duration.ofMillis(20);

    @BeforeAll
    static void startFx() throws InterruptedException {
        FxRuntime.start();
    }

    @Test
    void aBurstOfTenThousandEventsArrivesInOrderInAFewBatchesOnTheFxThreadWith50MsOfQuietBetweenBatches() throws Exception {
        List<Integer> received = Collections.synchronizedList(new ArrayList<>());
        List<Long> batchStarts = Collections.synchronizedList(new ArrayList<>());
        List<Long> batchEnds = Collections.synchronizedList(new ArrayList<>());
        List<Boolean> onFxThread = Collections.synchronizedList(new ArrayList<>());
        try (UpdateBatcher<Integer> batcher = new UpdateBatcher<>(Duration.ofMillis(50), Platform::runLater, batch -> {
            batchStarts.add(System.nanoTime());
            onFxThread.add(Platform.isFxApplicationThread());
            received.addAll(batch);
            LockSupport.parkNanos(RENDERING.toNanos()); // a table of thousands of rows takes a while to lay out
            batchEnds.add(System.nanoTime());
        })) {
            long start = System.nanoTime();
            Thread producer = new Thread(() -> IntStream.range(0, 10_000).forEach(batcher::offer));
            producer.start();
            producer.join();

            await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 10_000);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(received).isEqualTo(IntStream.range(0, 10_000).boxed().toList());
            assertThat(onFxThread).containsOnly(true);
            assertThat(batchStarts.size()).isLessThanOrEqualTo((int) (elapsedMs / (50 + RENDERING.toMillis())) + 2);
            for (int i = 1; i < batchStarts.size(); i++) {
                assertThat(batchStarts.get(i) - batchEnds.get(i - 1)).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
            }
        }
    }

    @Test
    void theFirstEventAfterAQuietSpellIsShownAtOnce() {
        List<Integer> received = Collections.synchronizedList(new ArrayList<>());
        try (UpdateBatcher<Integer> batcher = new UpdateBatcher<>(Duration.ofSeconds(30), Platform::runLater, received::addAll)) {
            batcher.offer(1);
            await().atMost(Duration.ofSeconds(2)).until(() -> received.equals(List.of(1)));
        }
    }
}
