package dev.baton.liveness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.session.ProcessIdentity;
import dev.baton.support.ChildProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Liveness of real processes: running, and exited but not reaped. */
class OsProcessLivenessTest {

    private final OsProcessLiveness liveness = new OsProcessLiveness();

    @Test
    void aRunningProcessIsAlive() {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            assertThat(liveness.of(ProcessIdentity.ofRunning(agent.pid()))).isEqualTo(Liveness.ALIVE);
        }
    }

    @Test
    void anUnreapedZombieIsDeadThoughItsPidStillShows() throws Exception {
        // sh starts a child that exits a second later, when sh has become `sleep`, which never reaps it: <defunct>.
        Process parent = new ProcessBuilder("sh", "-c", "sleep 1 & echo $!; exec sleep 300").start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            long zombie = Long.parseLong(out.readLine().trim());
            ProcessIdentity identity = new ProcessIdentity(zombie,
                    ProcessHandle.of(zombie).flatMap(handle -> handle.info().startInstant()).orElse(null));
            Path stat = Path.of("/proc", Long.toString(zombie), "stat");
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Files.readString(stat).replaceAll(".*\\) ", "").startsWith("Z"));
            assertThat(ProcessHandle.of(zombie).map(ProcessHandle::isAlive)).contains(true);

            assertThat(liveness.of(identity)).isEqualTo(Liveness.EXITED);
        } finally {
            parent.destroyForcibly();
        }
    }
}
