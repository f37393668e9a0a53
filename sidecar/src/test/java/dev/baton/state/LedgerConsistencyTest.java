package dev.baton.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.FileLock;
import dev.baton.lock.LockResult;
import dev.baton.lock.LockRows;
import dev.baton.lock.ReleaseOutcome;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.AgentKind;
import dev.baton.session.Registration;
import dev.baton.store.SqliteStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Concurrent writers on a real SQLite store whose commits fail now and then. A failed commit must
 * leave no trace: afterwards what every writer was told, what the sidecar holds in memory and what the
 * database holds are the same, and the audit log, which has only committed transactions, never shows
 * two holders of one file. Writers share files, so their transactions land in the same group commits.
 */
class LedgerConsistencyTest {

    static final int WRITERS = 6;
    static final int FILES = 10;
    static final int OPERATIONS = 300;
    /** One commit in this many fails; high enough that failures hit batches of several writers. */
    static final int FAIL_ONE_IN = 8;

    @TempDir Path dir;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void whatWritersWereToldMemoryAndDiskAgreeWhileCommitsFail(long seed) throws Exception {
        Path database = dir.resolve("baton.db");
        FlakyStore store = new FlakyStore(new SqliteStore(database), new Random(seed));
        Map<String, Set<String>> told = new TreeMap<>();
        Map<String, String> inMemory;
        List<AuditEntry> audit;
        try (Baton baton = new Baton(store, Clock.systemUTC(), new OsProcessLiveness(), Duration.ofMinutes(30))) {
            for (int w = 0; w < WRITERS; w++) {
                baton.sessions().register(new Registration("w" + w, AgentKind.CLI, null, null, null, null, null, null));
            }
            store.failing = true;
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            try {
                Map<String, Future<Set<String>>> writers = new TreeMap<>();
                for (int w = 0; w < WRITERS; w++) {
                    String session = "w" + w;
                    Random random = new Random(seed * 1_000 + w);
                    writers.put(session, pool.submit(() -> write(baton, session, random)));
                }
                for (Map.Entry<String, Future<Set<String>>> writer : writers.entrySet()) {
                    told.put(writer.getKey(), writer.getValue().get(120, TimeUnit.SECONDS));
                }
            } finally {
                pool.shutdownNow();
            }
            store.failing = false;
            inMemory = baton.ledger().read(world -> world.rows(LockRows.FILES).stream()
                    .collect(Collectors.toMap(FileLock::file, FileLock::sessionId, (a, b) -> a, TreeMap::new)));
            audit = store.auditSince(0, Integer.MAX_VALUE);
        }
        assertThat(store.failed.get()).as("commits that failed").isGreaterThan(OPERATIONS / FAIL_ONE_IN);

        Map<String, String> expected = new TreeMap<>();
        told.forEach((session, files) -> files.forEach(file -> expected.put(file, session)));
        Map<String, String> onDisk;
        try (SqliteStore reopened = new SqliteStore(database)) {
            onDisk = reopened.load(LockRows.FILES).stream()
                    .collect(Collectors.toMap(FileLock::file, FileLock::sessionId, (a, b) -> a, TreeMap::new));
        }
        assertThat(inMemory).as("held in memory").isEqualTo(expected);
        assertThat(onDisk).as("held in the database").isEqualTo(expected);
        assertThat(replay(audit)).as("held by the audit log's account").isEqualTo(expected);
    }

    /** One writer's random acquires and releases; returns the files it was told it holds at the end. */
    private static Set<String> write(Baton baton, String session, Random random) {
        Set<String> held = new HashSet<>();
        for (int i = 0; i < OPERATIONS; i++) {
            int kind = random.nextInt(10);
            try {
                if (kind < 5) {
                    List<String> files = files(random, 1 + random.nextInt(3));
                    for (LockResult result : baton.locks().acquire(AcquireRequest.explicit(session, files, Duration.ZERO)).results()) {
                        if (result.acquired()) {
                            assertThat(held.contains(result.file())).as("%s re-entrant on %s", session, result.file())
                                    .isEqualTo(result.reentrant());
                            held.add(result.file());
                        } else {
                            assertThat(held).as("%s refused a file it holds", session).doesNotContain(result.file());
                        }
                    }
                } else if (kind < 9) {
                    ReleaseOutcome outcome = baton.locks().release(session, files(random, 1 + random.nextInt(2)), ReleaseReason.RELEASED);
                    assertThat(held).as("%s released", session).containsAll(outcome.released());
                    assertThat(outcome.notHeld()).as("%s told it did not hold", session).noneMatch(held::contains);
                    outcome.released().forEach(held::remove);
                } else {
                    ReleaseOutcome outcome = baton.locks().releaseAll(session, ReleaseReason.RELEASED);
                    assertThat(new HashSet<>(outcome.released())).as("%s released all", session).isEqualTo(held);
                    held.clear();
                }
            } catch (StoreException failed) {
                // The transaction was undone: what this writer holds is what it held before.
            }
        }
        return held;
    }

    private static List<String> files(Random random, int count) {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            files.add("/repo/f" + random.nextInt(FILES));
        }
        return files;
    }

    /** Holders by the audit log, asserting at every entry that a file had one holder at most. */
    private static Map<String, String> replay(List<AuditEntry> audit) {
        Map<String, String> holders = new HashMap<>();
        for (AuditEntry entry : audit) {
            if (entry.action().equals("acquire")) {
                assertThat(holders.put(entry.file(), entry.sessionId())).as("audit #%d: %s already held", entry.id(), entry.file())
                        .isNull();
            } else if (entry.action().equals("release")) {
                assertThat(holders.remove(entry.file())).as("audit #%d: %s released by its holder", entry.id(), entry.file())
                        .isEqualTo(entry.sessionId());
            }
        }
        return new TreeMap<>(holders);
    }

    /** Fails a random share of commits before anything reaches the database. */
    static final class FlakyStore extends ForwardingStore {
        private final Random random;
        final AtomicInteger failed = new AtomicInteger();
        volatile boolean failing;

        FlakyStore(SqliteStore real, Random random) {
            super(real);
            this.random = random;
        }

        @Override
        public void commit(Batch batch) {
            boolean fail;
            synchronized (random) {
                fail = failing && random.nextInt(FAIL_ONE_IN) == 0;
            }
            if (fail) {
                failed.incrementAndGet();
                throw new StoreException("the test failed this commit", null);
            }
            real.commit(batch);
        }
    }
}
