package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.support.BatonCli;
import dev.baton.support.Sigkill;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code baton exclusive}: CMD never runs on after the wrapper that holds its lock is gone. */
class ExclusiveTiedTest extends CliFixture {

    private static Optional<ProcessHandle> running(Path pidFile) throws Exception {
        return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).filter(ProcessHandle::isAlive);
    }

    @Test
    void whenTheWrapperIsSigkilledCmdAndWhatItStartedEndBeforeTheLockCanPassOn() throws Exception {
        Path cmdPid = work.resolve("cmd.pid");
        Path grandchildPid = work.resolve("grandchild.pid");
        Path temporary = Files.createDirectories(work.resolve("wrapper-tmp"));
        ProcessBuilder builder = baton.builder("exclusive", "deploy", "--", "bash", "-c",
                "sleep 300 & echo $! > " + grandchildPid + "; echo $$ > " + cmdPid + "; wait");
        builder.command().add(1, "-Djava.io.tmpdir=" + temporary);
        Process wrapper = builder.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(cmdPid) && Files.size(cmdPid) > 0
                    && Files.exists(grandchildPid) && Files.size(grandchildPid) > 0);
            Optional<ProcessHandle> cmd = running(cmdPid);
            Optional<ProcessHandle> grandchild = running(grandchildPid);
            assertThat(cmd).isPresent();
            assertThat(grandchild).isPresent();

            Sigkill.of(wrapper, Duration.ofSeconds(10));

            await().atMost(Duration.ofSeconds(10)).until(() -> !cmd.get().isAlive() && !grandchild.get().isAlive());
            try (var left = Files.list(temporary)) {
                assertThat(left).as("the wrapper's FIFO, which no one removes after a SIGKILL").isEmpty();
            }
        } finally {
            wrapper.destroyForcibly();
            running(cmdPid).ifPresent(ProcessHandle::destroyForcibly);
            running(grandchildPid).ifPresent(ProcessHandle::destroyForcibly);
        }
        BatonCli.Result next = baton.run("exclusive", "deploy", "--", "true");
        assertThat(next.exit()).as(next.err()).isZero();
    }

    @Test
    void cmdReadsTheCallersInputAndItsExitStatusIsTheWrappers() throws Exception {
        Process wrapper = baton.builder("exclusive", "job", "--", "bash", "-c", "read line; test \"$line\" = hello && exit 9")
                .start();
        wrapper.getOutputStream().write("hello\n".getBytes());
        wrapper.getOutputStream().close();

        assertThat(wrapper.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(wrapper.exitValue()).isEqualTo(9);
        assertThat(sidecar.get("/v1/named-locks").body().path("named_locks").size()).isZero();
    }
}
