package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.BatonCli;
import dev.baton.support.ChildProcess;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code baton locks} and {@code baton acquire} tell a person at a terminal. */
class LockListingCliTest extends CliFixture {

    @Test
    void locksListsNamedLocksWithHolderPidHostSinceAndCommand() {
        try (ChildProcess job = ChildProcess.sleeping()) {
            assertThat(sidecar.post("/v1/named-locks/acquire", Map.of("name", "nightly-release", "pid", job.pid(),
                    "host", "buildbox", "purpose", "make release")).status()).isEqualTo(200);

            BatonCli.Result all = baton.run("locks");
            BatonCli.Result named = baton.run("locks", "--named");
            BatonCli.Result namedJson = baton.run("locks", "--named", "--json");

            assertThat(all.exit()).as(all.err()).isZero();
            assertThat(all.out()).contains("no file locks held").contains("nightly-release  pid " + job.pid()
                    + " on buildbox (alive) since ").contains("running: make release");
            assertThat(named.out()).contains("nightly-release  pid " + job.pid()).doesNotContain("file locks");
            assertThat(namedJson.out()).contains("\"named_locks\"").contains("\"purpose\" : \"make release\"");
        }
    }

    @Test
    void aTerminalsSessionHasAnIdNoOneCanGuessAndTakeFirst() {
        ProcessHandle shell = ProcessHandle.current(); // the shell of the baton commands run here
        String guessed = "cli-" + shell.pid() + "-" + shell.info().startInstant().orElseThrow().toEpochMilli();
        sidecar.register(guessed, "cli", null); // another process takes the id the terminal's session once had

        BatonCli.Result acquired = baton.run("acquire", "src/App.java");
        BatonCli.Result again = baton.run("acquire", "src/Util.java");

        assertThat(acquired.exit()).as(acquired.err()).isZero();
        assertThat(again.exit()).as(again.err()).isZero();
        java.util.List<String> holders = sidecar.get("/v1/locks").body().path("locks").findValuesAsText("session");
        assertThat(holders).hasSize(2).allSatisfy(id -> assertThat(id).startsWith("cli-").isNotEqualTo(guessed)
                .hasSizeGreaterThan("cli-".length() + 30));
        assertThat(holders.get(0)).isEqualTo(holders.get(1)); // one shell, one session
    }

    @Test
    void locksNamedSaysSoWhenNoNamedLockIsHeld() {
        BatonCli.Result named = baton.run("locks", "--named");

        assertThat(named.exit()).isZero();
        assertThat(named.out()).contains("no named locks held");
    }

    @Test
    void acquiringAFileInADirectoryThatDoesNotExistSaysSo() {
        BatonCli.Result acquired = baton.run("acquire", "srcc/App.java");

        assertThat(acquired.exit()).as(acquired.err()).isZero();
        assertThat(acquired.out()).contains("acquired: srcc/App.java")
                .contains("its directory srcc does not exist yet");
    }
}
