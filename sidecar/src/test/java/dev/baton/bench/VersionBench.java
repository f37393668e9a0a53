package dev.baton.bench;

import dev.baton.Baton;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.SharedLockSpace;
import dev.baton.session.AgentKind;
import dev.baton.session.Registration;
import dev.baton.store.SqliteStore;
import dev.baton.version.VersionSettings;
import dev.baton.version.VersionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What keeping the holder's version adds to the end of an edit (PostToolUse), through the domain and SQLite without
 * HTTP: the end of an edit alone, then with its file kept when its content is unchanged and when it is new each time
 * (a new content file, flushed, and an audit entry). The cases take turns, round after round; medians per case.
 */
public final class VersionBench {

    private VersionBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 8192;
        Path dir = Files.createTempDirectory("baton-version-bench");
        try (Baton baton = new Baton(new SqliteStore(dir.resolve("baton.db")), Clock.systemUTC(), new OsProcessLiveness(),
                Duration.ofMinutes(30), SharedLockSpace.LOCAL,
                new VersionStore(dir.resolve("versions"), VersionSettings.defaults()))) {
            baton.sessions().register(new Registration("s", AgentKind.API, null, null, null, null, null, null));
            Path file = dir.resolve("Edited.java");
            byte[] content = new byte[size];
            Arrays.fill(content, (byte) 'x');
            Files.write(file, content);
            List<String> files = List.of(file.toString());
            baton.locks().acquire(AcquireRequest.explicit("s", files, Duration.ZERO));
            long[] alone = new long[rounds];
            long[] unchanged = new long[rounds];
            long[] changed = new long[rounds];
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                baton.locks().editDone("s", files);
                alone[round] = System.nanoTime() - t0;

                t0 = System.nanoTime();
                baton.locks().editDone("s", files);
                baton.versions().keep("s", files);
                unchanged[round] = System.nanoTime() - t0;

                content[round % size] = (byte) ('a' + round % 26);
                content[(round / size) % size] ^= 1;
                Files.write(file, content); // the edit itself, outside the timing
                t0 = System.nanoTime();
                baton.locks().editDone("s", files);
                baton.versions().keep("s", files);
                changed[round] = System.nanoTime() - t0;
            }
            double base = median(alone);
            System.out.printf(Locale.ROOT, "edit end alone: %.1f µs%n", base);
            System.out.printf(Locale.ROOT, "edit end + keep, content unchanged: %.1f µs (%.2f×)%n", median(unchanged),
                    median(unchanged) / base);
            System.out.printf(Locale.ROOT, "edit end + keep, new content of %d bytes: %.1f µs (%.2f×)%n", size,
                    median(changed), median(changed) / base);
        }
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1000.0;
    }
}
