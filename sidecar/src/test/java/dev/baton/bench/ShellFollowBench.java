package dev.baton.bench;

import dev.baton.home.BatonHome;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Locale;

/**
 * How an agent's shell commands fare now that each runs in Baton's namespace and follows the lock table
 * (docs/PERFORMANCE.md, "Shell commands"): two agent processes of their own (copies of bash under other names, each
 * with a session of its own through the real hook) share a small repository with an in-process sidecar.
 *
 * <ul>
 *   <li><b>follow</b>: the runner starts a wrapped command that spins on {@code [ -w FILE ]}; the holder then takes
 *       FILE through its PreToolUse hook. The figure is the time from the hook's start (and from its answer) to the
 *       moment the running command finds the file read-only. Then the holder ends its turn and the file is free
 *       again for the next round.</li>
 *   <li><b>wrapper</b>: what the wrapper adds to {@code true} for an agent's command (the binder, the two
 *       namespaces and the watch included), against {@code bash -c true} started by the same agent, alternating,
 *       with nothing and with 5 files held by the other session.</li>
 * </ul>
 * Usage: ShellFollowBench [rounds [runs]]. Times come from bash's {@code $EPOCHREALTIME} in the agent processes.
 */
public final class ShellFollowBench {

    private static final Path SCRIPT = Files.isRegularFile(Path.of("hook-scripts", "baton-hook"))
            ? Path.of("hook-scripts", "baton-hook").toAbsolutePath()
            : Path.of("..", "hook-scripts", "baton-hook").toAbsolutePath().normalize();
    private static final Path WRAPPER = SCRIPT.resolveSibling("baton-shell");

    private ShellFollowBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path dir = Files.createTempDirectory("baton-follow-bench");
        BatonHome home = new BatonHome(Files.createDirectories(dir.resolve("home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        Path repo = Files.createDirectories(dir.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        Files.createDirectories(repo.resolve("src"));
        for (int i = 0; i < 6; i++) {
            Files.writeString(repo.resolve("src/F" + i + ".java"), "x\n");
        }
        Files.writeString(repo.resolve("src/Own.java"), "x\n");
        git(repo, "add", "-A");
        git(repo, "-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "files");
        try (Sidecar sidecar = Sidecar.start(SidecarOptions.defaults(home, 0), SidecarAdapters::of);
             Agent runner = new Agent(home, repo, dir, "runner");
             Agent holder = new Agent(home, repo, dir, "holder")) {
            runner.takes("src/Own.java", "own");
            follow(repo, runner, holder, rounds);
            wrapper(repo, runner, holder, runs);
        }
    }

    private static void follow(Path repo, Agent runner, Agent holder, int rounds) throws Exception {
        double[] fromStart = new double[rounds];
        double[] fromAnswer = new double[rounds];
        String file = "src/F0.java";
        for (int round = -3; round < rounds; round++) {
            Path go = repo.resolve("go"), readOnly = repo.resolve("read-only");
            Files.deleteIfExists(go);
            Files.deleteIfExists(readOnly);
            runner.send("'" + WRAPPER + "' 'touch go; i=0; while [ -w " + file + " ] && [ $i -lt 20000000 ]; do i=$((i+1));"
                    + " done; echo $EPOCHREALTIME > read-only' > /dev/null 2>&1 & echo started");
            runner.expect("started");
            awaitFile(go);
            String[] times = holder.takes(file, "r" + round).split(" ");
            awaitFile(readOnly);
            double seen = Double.parseDouble(Files.readString(readOnly).strip());
            if (round >= 0) {
                fromStart[round] = (seen - Double.parseDouble(times[0])) * 1000;
                fromAnswer[round] = (seen - Double.parseDouble(times[1])) * 1000;
            }
            holder.stop();
        }
        Arrays.sort(fromStart);
        Arrays.sort(fromAnswer);
        System.out.println("| a file taken while a command runs is read-only for it | rounds | p50 ms | p90 ms | max ms |");
        System.out.println("|---|---|---|---|---|");
        System.out.printf(Locale.ROOT, "| from the holder's hook call | %d | %.2f | %.2f | %.2f |%n", rounds,
                fromStart[rounds / 2], fromStart[(int) (rounds * 0.9)], fromStart[rounds - 1]);
        System.out.printf(Locale.ROOT, "| from the hook's answer | %d | %.2f | %.2f | %.2f |%n", rounds,
                fromAnswer[rounds / 2], fromAnswer[(int) (rounds * 0.9)], fromAnswer[rounds - 1]);
        System.out.println();
    }

    private static void wrapper(Path repo, Agent runner, Agent holder, int runs) throws Exception {
        System.out.println("| an agent's command | files held by the other session | runs | p50 ms | p90 ms | added p50 ms |");
        System.out.println("|---|---|---|---|---|---|");
        for (int held : new int[] {0, 5}) {
            for (int i = 1; i <= held; i++) {
                holder.takes("src/F" + i + ".java", "w" + i);
            }
            double[] plain = new double[runs];
            double[] wrapped = new double[runs];
            for (int i = -Math.max(5, runs / 10); i < runs; i++) {
                double p = runner.timed("bash -c true");
                double w = runner.timed("'" + WRAPPER + "' true");
                if (i >= 0) {
                    plain[i] = p;
                    wrapped[i] = w;
                }
            }
            Arrays.sort(plain);
            Arrays.sort(wrapped);
            System.out.printf(Locale.ROOT, "| `bash -c true` | %d | %d | %.2f | %.2f | — |%n", held, runs, plain[runs / 2],
                    plain[(int) (runs * 0.9)]);
            System.out.printf(Locale.ROOT, "| `baton-shell true` | %d | %d | %.2f | %.2f | %.2f |%n", held, runs,
                    wrapped[runs / 2], wrapped[(int) (runs * 0.9)], wrapped[runs / 2] - plain[runs / 2]);
        }
    }

    /** Bounded: a benchmark that stops by itself. */
    private static void awaitFile(Path file) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(file) || Files.size(file) == 0 && file.getFileName().toString().equals("read-only")) {
            if (System.nanoTime() > deadline) {
                throw new IOException("no " + file + " within a minute");
            }
            Thread.onSpinWait();
        }
    }

    private static void git(Path repo, String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = "git";
        System.arraycopy(args, 0, command, 1, args.length);
        Process process = new ProcessBuilder(command).directory(repo.toFile()).inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed");
        }
    }

    /** An agent process of its own: a copy of bash that runs the lines it is sent in the repository. */
    private static final class Agent implements AutoCloseable {
        private final Process process;
        private final OutputStream in;
        private final BufferedReader out;
        private final Path dir;
        private final Path repo;
        private final String session;
        private int calls;

        Agent(BatonHome home, Path repo, Path dir, String name) throws IOException {
            this.dir = Files.createDirectories(dir.resolve("agent-" + name));
            this.repo = repo;
            this.session = name + "-" + System.nanoTime();
            Path program = this.dir.resolve("agent-" + name);
            Files.copy(Path.of("/bin/bash").toRealPath(), program, StandardCopyOption.REPLACE_EXISTING);
            program.toFile().setExecutable(true);
            ProcessBuilder builder = new ProcessBuilder(program.toString(), "--noprofile", "--norc", "-s")
                    .directory(repo.toFile()).redirectErrorStream(true);
            builder.environment().put("BATON_HOME", home.dir().toString());
            builder.environment().put("BATON_HOOK_TIMEOUT", "60");
            this.process = builder.start();
            this.in = process.getOutputStream();
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        void send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        String expect(String prefix) throws IOException {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith(prefix)) {
                    return line.substring(prefix.length()).strip();
                }
            }
            throw new IOException("the agent ended");
        }

        /** Takes FILE through the Write tool's PreToolUse hook: "start answer" in $EPOCHREALTIME seconds. */
        String takes(String file, String call) throws IOException {
            Path payload = dir.resolve("take-" + (++calls) + ".json");
            Files.writeString(payload, "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/t\",\"cwd\":\"" + repo
                    + "\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\""
                    + repo.resolve(file) + "\",\"content\":\"x\\n\"},\"tool_use_id\":\"toolu_" + call + "\"}");
            send("s=$EPOCHREALTIME; '" + SCRIPT + "' claude PreToolUse < '" + payload + "' > /dev/null; e=$EPOCHREALTIME;"
                    + " echo \"took $s $e\"");
            return expect("took ");
        }

        /** Ends the turn: the clean files are released. */
        void stop() throws IOException {
            Path payload = dir.resolve("stop-" + (++calls) + ".json");
            Files.writeString(payload, "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/t\",\"cwd\":\"" + repo
                    + "\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}");
            send("'" + SCRIPT + "' claude Stop < '" + payload + "' > /dev/null; echo stopped");
            expect("stopped");
        }

        /** Milliseconds {@code command} took, started by this agent. */
        double timed(String command) throws IOException {
            send("s=$EPOCHREALTIME; " + command + " > /dev/null 2>&1; e=$EPOCHREALTIME; echo \"timed $s $e\"");
            String[] times = expect("timed ").split(" ");
            return (Double.parseDouble(times[1]) - Double.parseDouble(times[0])) * 1000;
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
