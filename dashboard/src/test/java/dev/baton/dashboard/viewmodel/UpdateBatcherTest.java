package dev.baton.dashboard.viewmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.dashboard.FxRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * A batch the FX thread runs after the window closed: here one handed over before the interval was over (its
     * event came while the batch before it was applied), which used to reschedule itself on the stopped timer and
     * throw on the FX thread.
     */
    @Test
    void aBatchThatRunsAfterCloseAndEventsOfferedAfterItShowNothingAndThrowNothing() {
        List<Runnable> onFx = Collections.synchronizedList(new ArrayList<>());
        List<List<Integer>> shown = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<UpdateBatcher<Integer>> self = new AtomicReference<>();
        UpdateBatcher<Integer> batcher = new UpdateBatcher<>(Duration.ofSeconds(30), onFx::add, batch -> {
            shown.add(batch);
            if (batch.equals(List.of(1))) {
                self.get().offer(2); // the network's next frame, while this batch is being applied
            }
        });
        self.set(batcher);
        try {
            batcher.offer(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> onFx.size() == 1);
            onFx.remove(0).run();
            await().atMost(Duration.ofSeconds(5)).until(() -> onFx.size() == 1);
            batcher.close();

            onFx.remove(0).run();
            batcher.offer(3);

            assertThat(shown).containsExactly(List.of(1));
            assertThat(onFx).isEmpty();
        } finally {
            batcher.close();
        }
    }
}
