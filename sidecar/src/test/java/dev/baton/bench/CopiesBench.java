package dev.baton.bench;

import dev.baton.Baton;
import dev.baton.agent.claude.ClaudeCodeDialect;
import dev.baton.git.TestRepo;
import dev.baton.git.WorkTreeCopies;
import dev.baton.liveness.OsProcessLiveness;
import dev.baton.lock.AcquireRequest;
import dev.baton.lock.BranchRule;
import dev.baton.lock.RepositoryCopies;
import dev.baton.lock.SharedLockSpace;
import dev.baton.session.ProcessIdentity;
import dev.baton.session.Registration;
import dev.baton.store.SqliteStore;
import dev.baton.version.VersionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What naming files among the copies of a repository costs an edit (docs/PERFORMANCE.md): the lock table in this
 * process on a real SQLite file, in a repository with a second worktree on another branch, with the copies named and
 * without ({@link RepositoryCopies#NONE}, the floor), alternating rounds so both see the same machine. Prints one
 * markdown row per case: the median acquire in microseconds of each, and their ratio.
 * Usage: CopiesBench [files-per-round [rounds]].
 */
public final class CopiesBench {

    private CopiesBench() {
    }

    public static void main(String[] args) throws Exception {
        int files = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path dir = Files.createTempDirectory("baton-copies-bench");
        String[] names = new String[files];
        for (int i = 0; i < files; i++) {
            names[i] = "src/F" + i + ".java";
        }
        TestRepo repo = TestRepo.create(dir.resolve("app"), names);
        Path other = dir.resolve("app-b");
        repo.git("worktree", "add", "-q", "-b", "feature-b", other.toString());
        List<double[]> floor = new ArrayList<>();
        List<double[]> named = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) { // round 0 warms up and is not counted
            double[] without = measure(dir.resolve("none-" + round + ".db"), RepositoryCopies.NONE, repo.root(), other, names);
            double[] with = measure(dir.resolve("copies-" + round + ".db"), new WorkTreeCopies(BranchRule.TELL), repo.root(),
                    other, names);
            if (round > 0) {
                floor.add(without);
                named.add(with);
            }
        }
        String[] cases = {"first edit of a file (no other copy holds it)", "first edit of a file another worktree holds",
            "re-entrant edit"};
        System.out.println("| case | without copies (µs) | with copies (µs) | ratio |");
        System.out.println("|---|---|---|---|");
        for (int c = 0; c < cases.length; c++) {
            double a = median(floor, c);
            double b = median(named, c);
            System.out.printf("| %s | %.0f | %.0f | %.2f |%n", cases[c], a, b, b / a);
        }
    }

    /** Median microseconds of: first takes in the main worktree, first takes of the same files in the other, re-takes. */
    private static double[] measure(Path db, RepositoryCopies copies, Path main, Path other, String[] names) {
        try (Baton baton = new Baton(new SqliteStore(db), Clock.systemUTC(), new OsProcessLiveness(), Duration.ofMinutes(30),
                SharedLockSpace.LOCAL, VersionStore.NONE, copies)) {
            for (String id : List.of("a", "b")) {
                baton.sessions().register(new Registration(id, ClaudeCodeDialect.KIND, ProcessIdentity.current(), "host",
                        main.toString(), main.toString(), null, null));
            }
            double[] first = new double[names.length];
            double[] across = new double[names.length];
            double[] again = new double[names.length];
            for (int i = 0; i < names.length; i++) {
                first[i] = take(baton, "a", main.resolve(names[i]));
                across[i] = take(baton, "b", other.resolve(names[i]));
                again[i] = take(baton, "a", main.resolve(names[i]));
            }
            return new double[] {median(first), median(across), median(again)};
        }
    }

    private static double take(Baton baton, String session, Path file) {
        long started = System.nanoTime();
        baton.locks().acquire(new AcquireRequest(session, List.of(file.toString()), Duration.ZERO, true, true));
        return (System.nanoTime() - started) / 1_000.0;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double median(List<double[]> rounds, int c) {
        return median(rounds.stream().mapToDouble(round -> round[c]).toArray());
    }
}
