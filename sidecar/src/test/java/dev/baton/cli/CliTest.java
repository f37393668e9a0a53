package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import dev.baton.support.TestSidecar;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The real {@code baton} command, run as a separate process against a real sidecar. */
class CliTest extends CliFixture {

    @Test
    void acquireCheckAndReleaseFromTheSameShellWork() throws Exception {
        BatonCli.Result acquired = baton.run("acquire", "src/App.java");
        BatonCli.Result checked = baton.run("check", "src/App.java");
        BatonCli.Result listed = baton.run("locks", "--json");
        BatonCli.Result released = baton.run("release", "src/App.java");

        assertThat(acquired.exit()).as(acquired.err()).isZero();
        assertThat(acquired.out()).contains("acquired: src/App.java");
        assertThat(checked.exit()).isZero();
        assertThat(checked.out()).contains("held by this session");
        assertThat(listed.out()).contains(work.toRealPath().resolve("src/App.java").toString());
        assertThat(released.out()).contains("released: src/App.java");
        assertThat(sidecar.get("/v1/locks").body().path("locks").size()).isZero();
    }

    @Test
    void checkExitsOneAndNamesTheHolderWhenAnotherSessionHoldsTheFile() throws Exception {
        try (ChildProcess agent = ChildProcess.sleeping()) {
            sidecar.register("3f2a9c1e-7b4d", "claude-code", agent.pid());
            sidecar.postAs("3f2a9c1e-7b4d", "/v1/locks/acquire", Map.of("session_id", "3f2a9c1e-7b4d",
                    "files", List.of(work.resolve("App.java").toString())));

            BatonCli.Result checked = baton.run("check", "App.java");
            BatonCli.Result acquire = baton.run("acquire", "App.java");

            assertThat(checked.exit()).isEqualTo(1);
            assertThat(checked.out()).contains("App.java is held by claude-code session 3f2a9c1e")
                    .contains("pid " + agent.pid()).contains("alive").contains("baton negotiate App.java");
            assertThat(acquire.exit()).isEqualTo(1);
            assertThat(acquire.out()).contains("held: App.java is held by claude-code");
        }
    }

    @Test
    void fromInsideAnAgentsProcessTreeTheCliActsForThatAgentsSession() throws Exception {
        sidecar.register("agent-session", "claude-code", ProcessHandle.current().pid());

        BatonCli.Result acquired = baton.run("acquire", "Mine.java");

        assertThat(acquired.exit()).isZero();
        assertThat(sidecar.get("/v1/locks?session_id=agent-session").body().path("locks").size()).isEqualTo(1);
    }

    @Test
    void releaseWithFilesAndAllIsAClearErrorWithoutAStackTrace() {
        BatonCli.Result both = baton.run("release", "--all", "x.txt");

        assertThat(both.exit()).isNotZero();
        assertThat(both.err()).contains("not both").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void withoutARunningSidecarTheCliSaysHowToStartIt() throws Exception {
        sidecar.close();

        BatonCli.Result status = baton.run("status");

        assertThat(status.exit()).isNotZero();
        assertThat(status.err()).contains("baton serve").doesNotContain("\tat ");
        sidecar = TestSidecar.onHome(home).start();
    }

    @Test
    void exclusiveRunsTheCommandPassesItsExitCodeAndRefusesASecondRun() throws Exception {
        Path marker = work.resolve("started");
        Process first = baton.builder("exclusive", "nightly-job", "--", "bash", "-c",
                "touch " + marker + "; sleep 120").redirectErrorStream(true).start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(marker));

            BatonCli.Result second = baton.run("exclusive", "nightly-job", "--", "true");

            assertThat(second.exit()).isNotZero();
            assertThat(second.err()).contains("nightly-job is held by pid " + first.pid()).contains(" on ").contains("since");
        } finally {
            first.destroyForcibly();
            first.waitFor(10, TimeUnit.SECONDS);
        }
        BatonCli.Result afterKill = baton.run("exclusive", "nightly-job", "--", "bash", "-c", "exit 7");

        assertThat(afterKill.exit()).as(afterKill.err()).isEqualTo(7);
        assertThat(sidecar.get("/v1/named-locks").body().path("named_locks").size()).isZero();
    }

    @Test
    void serveRefusesASecondSidecarOnTheSameHome() throws Exception {
        Process second = baton.builder("serve", "--port", "0").redirectErrorStream(true).start();
        String output;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(second.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
            output = reader.lines().reduce("", (a, b) -> a + b + "\n");
        }
        assertThat(second.exitValue()).isNotZero();
        // Its exit may come while SQLite's library is still loading beside the main thread: that load stays quiet.
        assertThat(output).contains("already running").doesNotContain("Exception");
    }
}
