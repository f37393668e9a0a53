package dev.baton.bench;

import dev.baton.Baton;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.ReleaseReason;
import dev.baton.session.AgentKind;
import dev.baton.session.Registration;
import dev.baton.store.SqliteStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The engine without HTTP: acquire+release pairs per second on one thread, to split HTTP cost from store cost. */
public final class EngineBench {

    private EngineBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("baton-engine-bench");
        try (Baton baton = new Baton(new SqliteStore(dir.resolve("baton.db")), Clock.systemUTC(), new OsProcessLiveness(),
                Duration.ofMinutes(30))) {
            baton.sessions().register(new Registration("s", AgentKind.API, null, null, null, null, null, null));
            List<String> file = List.of("/bench/x");
            for (int round = 0; round < 3; round++) {
                int pairs = 20_000;
                long t0 = System.nanoTime();
                for (int i = 0; i < pairs; i++) {
                    baton.locks().acquire(AcquireRequest.explicit("s", file, Duration.ZERO));
                    baton.locks().release("s", file, ReleaseReason.RELEASED);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT, "engine: %,.0f pairs/s (%.1f µs per operation)%n", pairs / seconds,
                        seconds * 1e6 / (2 * pairs));
            }
        }
    }
}
