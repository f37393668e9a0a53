package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.git.TestRepo;
import dev.baton.support.ChildProcess;
import dev.baton.support.TestSidecar;
import dev.baton.support.TestSidecar.Agent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a held file carries that git has not committed, as the person supervising sees it before handing the file on:
 * the locks listing says it, and a forced release that hands on uncommitted work says so. Real git, a real sidecar.
 */
class UncommittedWorkCliTest {

    @TempDir Path dir;
    TestSidecar sidecar;
    TestRepo repo;
    Agent a;
    final ChildProcess agentA = ChildProcess.sleeping();

    @BeforeEach
    void start() throws IOException {
        repo = TestRepo.create(dir.resolve("repo"), "src/Clean.java", "src/Dirty.java");
        sidecar = TestSidecar.in(dir).start();
        System.setProperty(SidecarCommands.HOME_PROPERTY, sidecar.home().toString());
        a = sidecar.registerAgent("session-a", agentA.pid());
        sidecar.acquire(a, "src/Clean.java");
        sidecar.acquire(a, "src/Dirty.java");
        sidecar.acquire(a, "src/New.java");
        repo.write("src/Dirty.java", "a's unfinished work\n");
        repo.write("src/New.java", "a new file, never committed\n");
    }

    @AfterEach
    void stop() {
        System.clearProperty(SidecarCommands.HOME_PROPERTY);
        sidecar.close();
        agentA.close();
    }

    @Test
    void theLocksListingSaysWhichHeldFilesCarryUncommittedWork() throws IOException {
        Path outside = Files.createDirectories(dir.resolve("outside")).toRealPath().resolve("notes.txt");
        Files.writeString(outside, "no repository here\n");
        sidecar.acquire(a.id(), outside.toString(), 0);

        JsonNode listed = baton("locks", "--json").json().path("locks");
        assertThat(uncommitted(listed, "src/Clean.java").asBoolean(true)).isFalse();
        assertThat(uncommitted(listed, "src/Dirty.java").asBoolean()).isTrue();
        assertThat(uncommitted(listed, "src/New.java").asBoolean()).as("untracked is uncommitted").isTrue();
        assertThat(uncommitted(listed, outside.toString()).isMissingNode()).as("outside any repository: nobody can say")
                .isTrue();
        assertThat(sidecar.get("/v1/locks").body().path("locks").get(0).has("uncommitted"))
                .as("git runs only when asked").isFalse();

        String table = baton("locks").out();
        assertThat(table).contains("CHANGES");
        assertThat(line(table, "Clean.java")).endsWith("none");
        assertThat(line(table, "Dirty.java")).endsWith("uncommitted");
        assertThat(line(table, "notes.txt")).endsWith("?");
    }

    @Test
    void aForcedReleaseThatHandsOnUncommittedWorkSaysSoAndACleanOneDoesNot() {
        CoordinationCliTest.Run dirty = baton("force-release", sidecar.file("src/Dirty.java"), "--supervisor");
        assertThat(dirty.exitCode()).as(dirty.err()).isZero();
        assertThat(dirty.out()).contains("released").contains("still carries that session's uncommitted changes")
                .contains("git diff -- ");

        CoordinationCliTest.Run clean = baton("force-release", sidecar.file("src/Clean.java"), "--supervisor");
        assertThat(clean.exitCode()).as(clean.err()).isZero();
        assertThat(clean.out()).contains("released").doesNotContain("uncommitted");
        assertThat(sidecar.get("/v1/locks").body().path("locks").findValuesAsText("file"))
                .containsExactly(sidecar.file("src/New.java"));
    }

    @Test
    void aHeldFilesUncommittedChangesReadAsGitDiffShowsThem() throws IOException {
        JsonNode dirty = sidecar.get("/v1/locks/diff?file=" + sidecar.file("src/Dirty.java")).body();
        assertThat(dirty.path("diff").asText()).contains("-original content of src/Dirty.java")
                .contains("+a's unfinished work");
        assertThat(dirty.path("truncated").asBoolean(true)).isFalse();
        assertThat(sidecar.get("/v1/locks/diff?file=" + sidecar.file("src/New.java")).body().path("diff").asText())
                .as("an untracked file is all added").contains("+a new file, never committed");
        assertThat(sidecar.get("/v1/locks/diff?file=" + sidecar.file("src/Clean.java")).body().path("diff").asText())
                .isEmpty();

        Path outside = Files.createDirectories(dir.resolve("outside")).toRealPath().resolve("notes.txt");
        Files.writeString(outside, "no repository here\n");
        var refused = sidecar.get("/v1/locks/diff?file=" + outside);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("error").path("message").asText()).contains("in no git repository");
    }

    @Test
    void aBadChangesFlagIsA400AndListsNothing() {
        assertThat(sidecar.get("/v1/locks?changes=yes").status()).isEqualTo(400);
    }

    private JsonNode uncommitted(JsonNode locks, String file) {
        String key = file.startsWith("/") ? file : sidecar.file(file);
        for (JsonNode lock : locks) {
            if (lock.path("file").asText().equals(key)) {
                return lock.path("uncommitted");
            }
        }
        throw new AssertionError(key + " is not listed: " + locks);
    }

    private static CoordinationCliTest.Run baton(String... args) {
        return CoordinationCliTest.baton(args);
    }

    private static String line(String table, String file) {
        return table.lines().filter(l -> l.contains(file)).findFirst().orElseThrow(() -> new AssertionError(table)).strip();
    }
}
