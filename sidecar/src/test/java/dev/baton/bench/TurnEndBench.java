package dev.baton.bench;

import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The turn-end benchmark of docs/PERFORMANCE.md: what a Claude Code Stop costs at the sidecar when its session holds
 * 0, 3, 100 or 1,000 files of a repository of 50,000 (one of them changed, so it stays held, the others clean, so
 * they go), against {@code git status --untracked-files=all} of the whole repository run in the same rounds, right
 * after each Stop. The sidecar runs in-process with the production adapters on a temporary BATON_HOME; the payloads
 * are posted over HTTP as the hook script posts them. Each round takes the files again (PreToolUse and PostToolUse of
 * a Write, not timed), times the Stop, then ends the session. The repository is made under java.io.tmpdir and
 * deleted at the end. Usage: TurnEndBench [rounds [files [held…]]].
 */
public final class TurnEndBench {

    private TurnEndBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        int files = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        List<Integer> heldCounts = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            heldCounts.add(Integer.parseInt(args[i]));
        }
        if (heldCounts.isEmpty()) {
            heldCounts.addAll(List.of(0, 3, 100, 1_000));
        }
        Path dir = Files.createTempDirectory("baton-turnend-bench");
        try {
            run(dir, rounds, files, heldCounts);
        } finally {
            try (Stream<Path> tree = Files.walk(dir)) {
                tree.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void run(Path dir, int rounds, int files, List<Integer> heldCounts) throws Exception {
        Path homeDir = Files.createDirectories(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        BatonHome home = new BatonHome(homeDir);
        Path repo = ShellBench.repo(dir.resolve("repo"), files, 20);
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of)) {
            ShellBench.Client client = new ShellBench.Client(home);
            Map<Integer, double[]> stops = new LinkedHashMap<>();
            Map<Integer, double[]> statuses = new LinkedHashMap<>();
            heldCounts.forEach(held -> {
                stops.put(held, new double[rounds]);
                statuses.put(held, new double[rounds]);
            });
            int warmUp = Math.max(3, rounds / 5);
            for (int round = -warmUp; round < rounds; round++) {
                for (int held : heldCounts) {
                    String session = "bench-" + held + "-" + (round + warmUp);
                    take(client, repo, session, held, files);
                    long started = System.nanoTime();
                    client.post("Stop", payload(session, repo, "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false"));
                    double stop = (System.nanoTime() - started) / 1e6;
                    double status = wholeStatus(repo);
                    client.post("SessionEnd", payload(session, repo, "\"hook_event_name\":\"SessionEnd\",\"reason\":\"other\""));
                    if (round >= 0) {
                        stops.get(held)[round] = stop;
                        statuses.get(held)[round] = status;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "| files held (of %,d; 1 changed) | Stops | Stop p50 ms (range) "
                    + "| `git status` of the whole tree p50 ms, same rounds | Stop / `git status` |%n", files);
            System.out.println("|---|---|---|---|---|");
            for (int held : heldCounts) {
                double[] stop = stops.get(held);
                double[] status = statuses.get(held);
                Arrays.sort(stop);
                Arrays.sort(status);
                System.out.printf(Locale.ROOT, "| %,d | %d | %.1f (%.1f–%.1f) | %.1f | %.2f |%n", held, rounds,
                        stop[rounds / 2], stop[0], stop[rounds - 1], status[rounds / 2], stop[rounds / 2] / status[rounds / 2]);
            }
            System.out.println("load average at the end: " + Files.readString(Path.of("/proc/loadavg")).strip());
        }
    }

    /** The session takes {@code held} files spread over the tree, the first the changed src/d0/F0.java. */
    private static void take(ShellBench.Client client, Path repo, String session, int held, int files) throws Exception {
        for (int i = 0; i < held; i++) {
            int n = (int) ((long) i * files / held);
            String file = repo.resolve("src/d" + (n / 100) + "/F" + n + ".java").toString();
            String call = "\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"" + file
                    + "\",\"content\":\"x\"},\"tool_use_id\":\"toolu_" + session + "_" + i + "\"";
            client.post("PreToolUse", payload(session, repo, "\"hook_event_name\":\"PreToolUse\"," + call));
            client.post("PostToolUse", payload(session, repo, "\"hook_event_name\":\"PostToolUse\"," + call));
        }
    }

    private static String payload(String session, Path repo, String fields) {
        return "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/t\",\"cwd\":\"" + repo + "\"," + fields + "}";
    }

    /** The whole tree's status, as the turn's end ran it before it asked about the held files only. */
    private static double wholeStatus(Path repo) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("git", "-C", repo.toString(), "-c", "core.fsmonitor=false", "status",
                "--porcelain", "-z", "--untracked-files=all", "--no-renames")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("GIT_OPTIONAL_LOCKS", "0");
        long started = System.nanoTime();
        Process git = builder.start();
        if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
            throw new IOException("git status failed in " + repo);
        }
        return (System.nanoTime() - started) / 1e6;
    }
}
