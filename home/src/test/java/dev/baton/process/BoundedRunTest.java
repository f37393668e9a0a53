package dev.baton.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Real child processes: what a run captures, and that nothing a command does holds the run past its limit. */
class BoundedRunTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);

    @Test
    void aCommandsExitCodeOutputAndErrorsComeBackAndItReadsItsInput() throws Exception {
        BoundedRun run = BoundedRun.run(new ProcessBuilder("sh", "-c", "read line; echo \"got $line\"; echo oops >&2; exit 3"),
                "hello\n".getBytes(StandardCharsets.UTF_8), LIMIT);

        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.timedOut()).isFalse();
        assertThat(run.outText()).isEqualTo("got hello\n");
        assertThat(run.errText()).isEqualTo("oops\n");
    }

    /** A service manager or git may start a daemon that inherits the output; the run ends with the command. */
    @Test
    void aProcessLeftBehindHoldingTheOutputOpenDoesNotHoldTheRun() throws Exception {
        long started = System.nanoTime();

        BoundedRun run = BoundedRun.run(new ProcessBuilder("sh", "-c", "sleep 600 & echo $!"), new byte[0], LIMIT);

        assertThat(run.exit()).isZero();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LIMIT);
        ProcessHandle daemon = ProcessHandle.of(Long.parseLong(run.outText().strip())).orElseThrow();
        assertThat(daemon.isAlive()).as("the process left behind still runs, holding the output").isTrue();
        daemon.destroyForcibly();
    }

    @Test
    void aCommandStillRunningAtTheLimitIsKilledWithWhatItStartedAndSaysSo() throws Exception {
        BoundedRun run = BoundedRun.run(new ProcessBuilder("sh", "-c", "sleep 600 & echo $!; wait"), new byte[0],
                Duration.ofMillis(1500));

        assertThat(run.timedOut()).isTrue();
        assertThat(run.exit()).isEqualTo(-1);
        long sleeper = Long.parseLong(run.outText().strip());
        await("the command's own child to be killed too").atMost(Duration.ofSeconds(20))
                .until(() -> ProcessHandle.of(sleeper).map(p -> !p.isAlive() || zombie(sleeper)).orElse(true));
    }

    private static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (java.io.IOException e) {
            return true;
        }
    }

    @Test
    void mergedErrorsComeInTheOutput() throws Exception {
        BoundedRun run = BoundedRun.run(new ProcessBuilder("sh", "-c", "echo one; echo two >&2").redirectErrorStream(true),
                new byte[0], LIMIT);

        assertThat(run.outText()).isEqualTo("one\ntwo\n");
        assertThat(run.err()).isEmpty();
    }
}
