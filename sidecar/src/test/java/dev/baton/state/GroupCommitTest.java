package dev.baton.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireOutcome;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockRows;
import dev.baton.session.AgentKind;
import dev.baton.session.Registration;
import dev.baton.store.SqliteStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Concurrent writers and the group commit: shared commits, a committer that also writes what queued meanwhile (four
 * commits in a row at most), no early replies (not even for a call that changed nothing but saw a change in flight),
 * and a failure that undoes them all.
 */
class GroupCommitTest {

    private static final int WAITING = 8;

    @TempDir Path dir;
    private final ExecutorService writers = Executors.newFixedThreadPool(WAITING + 1);

    @AfterEach
    void stop() {
        writers.shutdownNow();
    }

    @Test
    void writersQueuedBehindACommitShareTheNextAndNoneIsAnsweredBeforeItIsDurable() throws Exception {
        HeldStore store = new HeldStore(new SqliteStore(dir.resolve("baton.db")));
        try (Baton baton = open(store)) {
            List<String> early = new CopyOnWriteArrayList<>();
            Future<?> first = holdFirstCommit(baton, store, early);
            List<Future<?>> queued = queueBehindIt(baton, early);

            assertThat(queued).as("writers answered while their commit waits").noneMatch(Future::isDone);
            assertThat(first.isDone()).isFalse();
            store.release.countDown();
            for (Future<?> writer : queued) {
                writer.get(30, TimeUnit.SECONDS);
            }
            first.get(30, TimeUnit.SECONDS);

            assertThat(early).as("writers answered before their lock was durable").isEmpty();
            assertThat(store.lockCommits).as("locks per commit: the held one, then all that queued behind it")
                    .containsExactly(1, WAITING);
        }
    }

    @Test
    void theCommitterAlsoWritesWhatQueuedDuringItsCommitRatherThanWakingAParkedWriterForIt() throws Exception {
        HeldStore store = new HeldStore(new SqliteStore(dir.resolve("baton.db")));
        try (Baton baton = open(store)) {
            Future<?> first = holdFirstCommit(baton, store, new CopyOnWriteArrayList<>());
            List<Future<?>> queued = queueBehindIt(baton, new CopyOnWriteArrayList<>());
            store.release.countDown();
            for (Future<?> writer : queued) {
                writer.get(30, TimeUnit.SECONDS);
            }
            first.get(30, TimeUnit.SECONDS);

            assertThat(store.lockCommits).containsExactly(1, WAITING);
            assertThat(store.committers).as("the threads that wrote the held commit and the next").hasSize(2)
                    .allMatch(thread -> thread == store.committers.get(0));
        }
    }

    @Test
    void aCommitterStopsAfterFourCommitsInARowAndAnswersItsCallerWhileWritersKeepComing() throws Exception {
        HeldStore store = new HeldStore(new SqliteStore(dir.resolve("baton.db")));
        try (Baton baton = open(store)) {
            Future<?> first = holdFirstCommit(baton, store, new CopyOnWriteArrayList<>());
            // Every commit returns only once one more writer has queued behind it: the queue is never empty.
            List<Future<?>> fed = new CopyOnWriteArrayList<>();
            store.afterEachCommit = () -> {
                if (fed.size() < 6) {
                    long before = baton.ledger().version();
                    String file = "/fed/" + fed.size();
                    fed.add(writers.submit(() -> baton.locks().acquire(AcquireRequest.explicit("s1", List.of(file), Duration.ZERO))));
                    await().atMost(Duration.ofSeconds(30)).until(() -> baton.ledger().version() > before);
                }
            };
            store.release.countDown();
            first.get(30, TimeUnit.SECONDS);
            for (Future<?> writer : fed) {
                writer.get(30, TimeUnit.SECONDS);
            }

            assertThat(store.lockCommits).as("locks per commit").containsExactly(1, 1, 1, 1, 1, 1, 1);
            Thread committer = store.committers.get(0);
            assertThat(store.committers.subList(0, 4)).as("the first four commits").allMatch(thread -> thread == committer);
            assertThat(store.committers.get(4)).as("the fifth commit's thread").isNotSameAs(committer);
        }
    }

    @Test
    void aFailedCommitUndoesEveryQueuedTransactionAndTellsEveryWriter() throws Exception {
        HeldStore store = new HeldStore(new SqliteStore(dir.resolve("baton.db")));
        try (Baton baton = open(store)) {
            List<String> early = new CopyOnWriteArrayList<>();
            Future<?> first = holdFirstCommit(baton, store, early);
            List<Future<?>> queued = queueBehindIt(baton, early);
            store.failHeld = true;
            store.release.countDown();

            List<Future<?>> all = new ArrayList<>(queued);
            all.add(first);
            for (Future<?> writer : all) {
                assertThat(failureOf(writer)).isInstanceOf(StoreException.class);
            }
            for (int i = 0; i <= WAITING; i++) {
                assertThat(baton.locks().holderOf("/r/" + i)).as("/r/%d", i).isEmpty();
            }
            assertThat(store.lockCommits).isEmpty();
        }
        try (Baton reopened = open(new HeldStore(new SqliteStore(dir.resolve("baton.db"))))) {
            assertThat(reopened.locks().locksOf("s0")).isEmpty();
        }
    }

    @ParameterizedTest(name = "the change it rests on fails: {0}")
    @ValueSource(booleans = {false, true})
    void anAnswerThatRestsOnAChangeNotYetDurableWaitsForItAndSharesItsFate(boolean fails) throws Exception {
        HeldStore store = new HeldStore(new SqliteStore(dir.resolve("baton.db")));
        try (Baton baton = open(store)) {
            Future<?> first = holdFirstCommit(baton, store, new CopyOnWriteArrayList<>());
            // A parallel call of the same session: in memory /r/0 is s0's already, so this acquire changes nothing.
            CompletableFuture<AcquireOutcome> again = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    again.complete(baton.locks().acquire(AcquireRequest.explicit("s0", List.of("/r/0"), Duration.ZERO)));
                } catch (RuntimeException e) {
                    again.completeExceptionally(e);
                }
            });
            caller.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> again.isDone()
                    || LockSupport.getBlocker(caller) instanceof CommitQueue);
            if (again.isDone()) {
                store.release.countDown(); // so that closing does not wait for the held commit
            }
            assertThat(again).as("answered while the lock it reports was not durable").isNotDone();

            store.failHeld = fails;
            store.release.countDown();
            if (fails) {
                assertThat(failureOf(first)).isInstanceOf(StoreException.class);
                assertThat(again).failsWithin(Duration.ofSeconds(30)).withThrowableOfType(ExecutionException.class)
                        .withCauseInstanceOf(StoreException.class);
                assertThat(baton.locks().holderOf("/r/0")).isEmpty();
            } else {
                first.get(30, TimeUnit.SECONDS);
                assertThat(again.get(30, TimeUnit.SECONDS).results()).singleElement()
                        .satisfies(result -> assertThat(result.reentrant()).isTrue());
                assertThat(store.durableLocks).contains("/r/0");
            }
        }
    }

    private Baton open(Store store) {
        Baton baton = new Baton(store, Clock.systemUTC(), new OsProcessLiveness(), Duration.ofMinutes(30));
        for (int i = 0; i <= WAITING; i++) {
            baton.sessions().register(new Registration("s" + i, AgentKind.CLI, null, null, null, null, null, null));
        }
        return baton;
    }

    /** Session s0 takes /r/0; its commit is held inside the store until the test releases it. */
    private Future<?> holdFirstCommit(Baton baton, HeldStore store, List<String> early) throws InterruptedException {
        store.holdNext = true;
        Future<?> first = writers.submit(() -> acquire(baton, store, 0, early));
        assertThat(store.entered.await(30, TimeUnit.SECONDS)).isTrue();
        return first;
    }

    /** Sessions s1…s8 each take their file; returns once all eight transactions are queued for the next commit. */
    private List<Future<?>> queueBehindIt(Baton baton, List<String> early) {
        long before = baton.ledger().version();
        List<Future<?>> queued = new ArrayList<>();
        for (int i = 1; i <= WAITING; i++) {
            int n = i;
            queued.add(writers.submit(() -> acquire(baton, (HeldStore) baton.ledger().store(), n, early)));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> baton.ledger().version() == before + WAITING);
        return queued;
    }

    private static void acquire(Baton baton, HeldStore store, int n, List<String> early) {
        String file = "/r/" + n;
        baton.locks().acquire(AcquireRequest.explicit("s" + n, List.of(file), Duration.ZERO));
        if (!store.durableLocks.contains(file)) {
            early.add(file);
        }
    }

    private static Throwable failureOf(Future<?> writer) throws Exception {
        try {
            writer.get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** The real store, with one commit held until released (and then failed, if asked), recording what is durable. */
    static final class HeldStore extends ForwardingStore {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Set<String> durableLocks = ConcurrentHashMap.newKeySet();
        /** Locks in each commit that took any, after the held one began. */
        final List<Integer> lockCommits = new CopyOnWriteArrayList<>();
        /** The thread that wrote each of those commits. */
        final List<Thread> committers = new CopyOnWriteArrayList<>();
        /** Run at the end of every commit, still inside it (the committer's thread, no monitor held). */
        volatile Runnable afterEachCommit = () -> { };
        volatile boolean holdNext;
        volatile boolean failHeld;
        private volatile boolean counting;

        HeldStore(SqliteStore real) {
            super(real);
        }

        @Override
        public void commit(Batch batch) {
            if (holdNext) {
                holdNext = false;
                counting = true;
                entered.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS); // bounded: a broken commit queue must fail the test, not hang it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (failHeld) {
                    throw new StoreException("the test failed this commit", null);
                }
            }
            real.commit(batch);
            List<String> locks = batch.rows().stream()
                    .filter(write -> write instanceof RowWrite.Upsert<?> && write.kind() == LockRows.FILES)
                    .map(write -> ((FileLock) ((RowWrite.Upsert<?>) write).row()).file()).toList();
            durableLocks.addAll(locks);
            if (counting && !locks.isEmpty()) {
                lockCommits.add(locks.size());
                committers.add(Thread.currentThread());
            }
            afterEachCommit.run();
        }
    }
}
