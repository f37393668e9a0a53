package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.support.TestSidecar;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many clients race over few files through the real HTTP API; the audit log, replayed in commit
 * order, must never show a file taken while another session held it.
 */
class ConcurrentLockingTest {

    static final int THREADS = 16;
    static final int OPS_PER_THREAD = 2_000;
    static final int FILES = 50;

    @TempDir Path home;

    @Test
    void sixteenClientsNeverHoldOneFileAtOnce() throws Exception {
        try (TestSidecar sidecar = TestSidecar.onHome(home).start()) {
            List<String> files = new ArrayList<>();
            for (int i = 0; i < FILES; i++) {
                files.add("/work/repo/file-" + i + ".txt");
            }
            for (int t = 0; t < THREADS; t++) {
                sidecar.register("s" + t, "api", null);
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<int[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(pool.submit(() -> run(sidecar, "s" + thread, files, new Random(4242L + thread))));
            }
            int acquired = 0;
            for (Future<int[]> result : results) {
                int[] counts = result.get(5, TimeUnit.MINUTES);
                assertThat(counts[1]).as("requests answered with an error").isZero();
                acquired += counts[0];
            }
            pool.shutdown();

            assertThat(acquired).as("some acquires must succeed for the test to mean anything").isGreaterThan(500);
            for (String file : files) {
                JsonNode entries = sidecar.get("/v1/history?limit=10000&file=" + file).body().path("entries");
                assertNoOverlap(file, entries);
            }
        }
    }

    private static int[] run(TestSidecar sidecar, String session, List<String> files, Random random) {
        int acquired = 0;
        int errors = 0;
        for (int op = 0; op < OPS_PER_THREAD; op++) {
            String file = files.get(random.nextInt(files.size()));
            boolean release = random.nextBoolean();
            TestSidecar.Reply reply = release
                    ? sidecar.postAs(session, "/v1/locks/release", Map.of("session_id", session, "files", List.of(file)))
                    : sidecar.postAs(session, "/v1/locks/acquire", Map.of("session_id", session, "files", List.of(file)));
            if (reply.status() != 200) {
                errors++;
            } else if (!release && reply.body().path("all_acquired").asBoolean()
                    && !reply.body().path("results").get(0).path("reentrant").asBoolean()) {
                acquired++;
            }
        }
        return new int[] {acquired, errors};
    }

    /** Replays one file's acquire/release records oldest first; a new holder while one is recorded is a violation. */
    private static void assertNoOverlap(String file, JsonNode newestFirst) {
        List<JsonNode> entries = new ArrayList<>();
        newestFirst.forEach(entries::add);
        java.util.Collections.reverse(entries);
        Map<String, String> holder = new HashMap<>();
        for (JsonNode entry : entries) {
            String action = entry.path("action").asText();
            String session = entry.path("session_id").asText();
            if (action.equals("acquire")) {
                assertThat(holder.get(file)).as("%s taken by %s at audit id %s while held", file, session,
                        entry.path("id").asText()).isNull();
                holder.put(file, session);
            } else if (action.equals("release")) {
                assertThat(holder.get(file)).as("%s released by %s without being held", file, session).isEqualTo(session);
                holder.remove(file);
            }
        }
    }
}
