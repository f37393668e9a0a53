package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.support.BatonCli;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One agent process hosting several sessions: the CLI acts for the one its environment names, or asks. */
class SessionChoiceTest extends CliFixture {

    @BeforeEach
    void registerSessions() {
        // This JVM plays the agent process above the CLI's shell; it runs two conversations.
        sidecar.register("older-conversation", "claude-code", ProcessHandle.current().pid());
        sidecar.register("newer-conversation", "claude-code", ProcessHandle.current().pid());
    }

    private static Map<String, String> environment(String variable, String value) {
        Map<String, String> env = new HashMap<>();
        CallerSession.SESSION_VARIABLES.forEach(name -> env.put(name, null));
        if (variable != null) {
            env.put(variable, value);
        }
        return env;
    }

    @Test
    void theSessionClaudeCodeNamesInTheEnvironmentIsTheOneThatActs() {
        BatonCli.Result acquired = baton.run(environment("CLAUDE_CODE_SESSION_ID", "newer-conversation"),
                "acquire", "Mine.java");

        assertThat(acquired.exit()).as(acquired.err()).isZero();
        assertThat(sidecar.get("/v1/locks").body().path("locks").get(0).path("holder").path("session").asText())
                .isEqualTo("newer-conversation");
    }

    @Test
    void codexsThreadIdPicksTheSessionToo() {
        BatonCli.Result acquired = baton.run(environment("CODEX_THREAD_ID", "older-conversation"), "acquire", "Mine.java");

        assertThat(acquired.exit()).as(acquired.err()).isZero();
        assertThat(sidecar.get("/v1/locks").body().path("locks").get(0).path("holder").path("session").asText())
                .isEqualTo("older-conversation");
    }

    @Test
    void withoutAVariableTheCliAsksForSessionInsteadOfGuessingAndTakesNothing() {
        BatonCli.Result acquired = baton.run(environment(null, null), "acquire", "Mine.java");

        assertThat(acquired.exit()).isEqualTo(2);
        assertThat(acquired.err()).contains("runs 2 sessions").contains("older-conversation")
                .contains("newer-conversation").contains("--session");
        assertThat(sidecar.get("/v1/locks").body().path("locks").size()).isZero();
    }
}
