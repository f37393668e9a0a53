package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.git.TestRepo;
import dev.baton.support.ChildProcess;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code baton overlaps}: the files being changed in several worktrees of one repository, the merge conflicts ahead. */
class OverlapsCliTest {

    @TempDir Path dir;
    TestSidecar sidecar;
    TestRepo repo;
    Path other;
    final ChildProcess agentA = ChildProcess.sleeping();
    final ChildProcess agentB = ChildProcess.sleeping();

    @BeforeEach
    void start() throws Exception {
        sidecar = TestSidecar.in(dir.resolve("sidecar")).start();
        System.setProperty(SidecarCommands.HOME_PROPERTY, sidecar.home().toString());
        repo = TestRepo.create(dir.resolve("app"), "src/App.java", "src/Util.java");
        other = dir.resolve("app-b");
        repo.git("worktree", "add", "-q", "-b", "feature-b", other.toString());
        other = other.toRealPath();
    }

    @AfterEach
    void stop() {
        System.clearProperty(SidecarCommands.HOME_PROPERTY);
        sidecar.close();
        agentA.close();
        agentB.close();
    }

    @Test
    void listsEachFileChangedInSeveralWorktreesWithWhoChangesItOnWhichBranch() {
        Agent a = sidecar.registerAgent("session-a", agentA.pid());
        Agent b = sidecar.registerAgent("session-b", agentB.pid());
        assertThat(CoordinationCliTest.baton("overlaps").out()).contains("no file is being changed in more than one copy of its repository");
        take(a, repo.path("src/App.java"));
        take(a, repo.path("src/Util.java"));
        var reply = take(b, other.resolve("src/App.java"));
        assertThat(reply.path("results").get(0).path("also_changed_in").get(0).path("branch").asText()).isEqualTo("main");

        CoordinationCliTest.Run listed = CoordinationCliTest.baton("overlaps");
        CoordinationCliTest.Run json = CoordinationCliTest.baton("overlaps", "--json");

        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.out().lines().toList()).containsExactly(
                "src/App.java  (gitdir:" + repo.root().resolve(".git") + ")",
                "  " + repo.root() + "  branch main  claude-code session-a",
                "  " + other + "  branch feature-b  claude-code session-b");
        assertThat(json.out()).contains("\"overlaps\"").contains("\"worktree\" : \"" + other + "\"")
                .doesNotContain("Util.java");
    }

    @Test
    void acquireFromTheTerminalSaysWhoElseChangesTheFileInAnotherWorktree() {
        Agent a = sidecar.registerAgent("session-a", agentA.pid());
        Agent b = sidecar.registerAgent("session-b", agentB.pid());
        take(a, repo.path("src/App.java"));

        CoordinationCliTest.Run acquired = CoordinationCliTest.baton(CoordinationCliTest.as(b, "acquire",
                other.resolve("src/App.java").toString()));
        CoordinationCliTest.Run tooLong = CoordinationCliTest.baton(CoordinationCliTest.as(b, "acquire", "--wait", "900",
                other.resolve("src/Util.java").toString()));

        assertThat(acquired.exitCode()).as(acquired.err()).isZero();
        assertThat(acquired.out()).contains("acquired: " + other.resolve("src/App.java"))
                .contains("  also being changed in " + repo.root() + " on branch main by claude-code session session-a");
        assertThat(tooLong.exitCode()).isNotZero();
        assertThat(tooLong.err()).contains("--wait must be between 0 and 600 seconds, was 900").doesNotContain("wait_seconds");
        assertThat(sidecar.baton().locks().locksOf("session-b")).hasSize(1);
    }

    private com.fasterxml.jackson.databind.JsonNode take(Agent agent, Path file) {
        return sidecar.post("/v1/locks/acquire", Map.of("session_id", agent.id(), "files", List.of(file.toString())),
                agent.proof()).json();
    }
}
