package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import dev.baton.support.SidecarProcess;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton serve} and {@code baton stop} as a user runs them from a terminal. */
class ServeAndStopTest {

    @TempDir Path home;
    @TempDir Path work;

    @Test
    void stopEndsAForegroundSidecarWhichKeepsItsLocksAndLogsToTheTerminalAndToSidecarLog() throws Exception {
        BatonCli baton = new BatonCli(home, work);
        Path terminal = work.resolve("terminal.txt");
        Process serve = baton.builder("serve", "--port", "0").redirectErrorStream(true)
                .redirectOutput(terminal.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(home.resolve("endpoint")));
            BatonCli.Result acquired = baton.run("acquire", "Kept.java");
            assertThat(acquired.exit()).as(acquired.err()).isZero();

            BatonCli.Result stopped = baton.run("stop");

            assertThat(stopped.exit()).as(stopped.err()).isZero();
            assertThat(stopped.out()).contains("stopped the sidecar (pid " + serve.pid());
            assertThat(serve.isAlive()).as("stop returns once the sidecar has exited").isFalse();
            assertThat(home.resolve("endpoint")).doesNotExist();
            assertThat(home.resolve("sidecar.pid")).doesNotExist();
            assertThat(Files.readString(terminal)).contains("serving on 127.0.0.1:");
            assertThat(Files.readString(home.resolve("sidecar.log"))).contains("serving on 127.0.0.1:");
        } finally {
            serve.destroyForcibly();
        }
        try (SidecarProcess restarted = SidecarProcess.start(home)) {
            assertThat(restarted.port()).isPositive();
            BatonCli.Result locks = baton.run("locks");
            assertThat(locks.out()).contains("Kept.java").containsPattern("cli +cli-");
        }
    }

    @Test
    void aStartedSidecarLoadsTheKernelSocketLookupBeforeItsFirstHookCall() throws Exception {
        // JNA's native part, unpacked into the home under a name of its own, is mapped once the lookup is bound.
        try (SidecarProcess sidecar = SidecarProcess.start(home)) {
            Path maps = Path.of("/proc", Long.toString(sidecar.pid()), "maps");
            String unpacked = home.toRealPath().resolve("native") + "/jna";
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(maps).contains(unpacked));
        }
    }

    @Test
    void stopWithNoSidecarRunningSaysSoAndNeverSignalsTheProcessThatReusedAKilledSidecarsPid() throws Exception {
        try (ChildProcess reusedPid = ChildProcess.sleeping()) {
            Files.writeString(home.resolve("sidecar.pid"), reusedPid.pid() + "\n");
            Files.createFile(home.resolve("sidecar.lock"));

            BatonCli.Result stopped = new BatonCli(home, work).run("stop");

            assertThat(stopped.exit()).as(stopped.err()).isZero();
            assertThat(stopped.out()).contains("no sidecar is running for " + home);
            assertThat(ProcessHandle.of(reusedPid.pid()).map(ProcessHandle::isAlive)).contains(true);
        }
    }

    @Test
    void aBusyPortIsReportedInOneSentenceWithoutAStackTrace() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            BatonCli.Result serve = new BatonCli(home, work).run("serve", "--port", Integer.toString(taken.getLocalPort()));

            assertThat(serve.exit()).isEqualTo(2);
            assertThat(serve.err()).contains("port " + taken.getLocalPort() + " is in use")
                    .contains("--port").doesNotContain("Exception").doesNotContain("ERROR");
        }
    }
}
