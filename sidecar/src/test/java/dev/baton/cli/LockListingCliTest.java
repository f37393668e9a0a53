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
    void locksIsATableWithAHeaderAlignedColumnsAndAgesBoldOnlyOnATerminalThatAllowsColour() throws Exception {
        assertThat(baton.run("acquire", "src/App.java", "src/main/java/shop/LongerName.java").exit()).isZero();

        BatonCli.Result piped = baton.run("locks");
        String onTerminal = throughATerminal(Map.of(), "locks");
        String noColour = throughATerminal(Map.of("NO_COLOR", "1"), "locks");

        java.util.List<String> lines = piped.out().lines().toList();
        assertThat(lines.get(0)).matches("FILE +AGENT +SESSION +PID +ALIVE +TAKEN +LAST EDIT +BRANCH");
        int agentColumn = lines.get(0).indexOf("AGENT");
        assertThat(lines.subList(1, 3)).allSatisfy(row -> {
            assertThat(row.indexOf(" cli ") + 1).isEqualTo(agentColumn);
            assertThat(row).contains(" s ago");
        });
        assertThat(piped.out()).doesNotContain("\u001b[").doesNotContainPattern("\\d{2}:\\d{2}:\\d{2}\\.\\d{3}");
        assertThat(onTerminal).contains("\u001b[1mFILE");
        assertThat(noColour).contains("FILE").doesNotContain("\u001b[");
    }

    /** {@code baton ARGS} with its standard output on a pseudo-terminal (util-linux's {@code script}), as a person runs it. */
    private String throughATerminal(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder inner = baton.builder(args);
        String line = inner.command().stream().map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(java.util.stream.Collectors.joining(" "));
        ProcessBuilder outer = new ProcessBuilder("script", "-qec", line, "/dev/null").directory(inner.directory())
                .redirectErrorStream(true);
        outer.environment().putAll(inner.environment());
        outer.environment().remove("NO_COLOR");
        outer.environment().putAll(env);
        Process process = outer.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return output;
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
