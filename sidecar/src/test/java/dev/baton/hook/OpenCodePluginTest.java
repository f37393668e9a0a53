package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.opencode.OpenCodeDialect;
import dev.baton.http.Json;
import dev.baton.session.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * OpenCode's plug-in, the real file, run by a node process standing in for OpenCode against a real sidecar: the
 * plug-in runs inside the agent's process, so the sidecar takes the process behind the connection for the agent.
 */
class OpenCodePluginTest extends HookFixture {

    static final String CART = "src/main/java/shop/Cart.java";
    static final String ORDER = "src/main/java/shop/Order.java";
    static final String HOLDER = "aaaaaaaa-1111-4000-8000-000000000001";
    static final String WRITE_CART = "python3 -c \"open('" + CART + "', 'w').write('by opencode\\n')\"";

    private Path file(String relative) {
        return harness.repo().path(relative);
    }

    /** A Claude Code session that holds Cart.java with a change in it. */
    private StandInAgent holderWithAChangedCart() throws Exception {
        StandInAgent holder = StandInAgent.start(harness, "holder", HOLDER);
        assertThat(holder.bash("sed -i 's/original/by the holder/' " + CART).denied()).isFalse();
        return holder;
    }

    @Test
    void anEditTakesItsFileForTheOpenCodeProcessItselfAndTheTurnsEndFreesItWhileClean() throws Exception {
        try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_first")) {
            ObjectNode write = OpenCodeHost.write(file(CART), "original content of " + CART + "\n");

            JsonNode before = opencode.before("write", "call_1", write);

            assertThat(before.has("error")).as(before.toString()).isFalse();
            assertThat(before.get("args")).isEqualTo(write);
            assertThat(harness.holderOf(CART)).contains("ses_first");
            Session session = harness.baton().sessions().find("ses_first").orElseThrow();
            assertThat(session.agent()).isEqualTo(OpenCodeDialect.KIND);
            assertThat(session.process().pid()).as("the OpenCode process the plug-in runs in").isEqualTo(opencode.pid());
            assertThat(opencode.after("write", "call_1", write, "Wrote file successfully."))
                    .isEqualTo("Wrote file successfully.");

            opencode.idle();

            assertThat(harness.holderOf(CART)).as("unchanged, so freed at the turn's end").isEmpty();
        }
    }

    @Test
    void aChangedFileStaysHeldAfterTheTurnAndAnApplyPatchTakesEveryFileItNames() throws Exception {
        try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_patch")) {
            ObjectNode patch = Json.mapper().createObjectNode().put("patchText", "*** Begin Patch\n*** Update File: "
                    + file(ORDER) + "\n@@\n-original content of " + ORDER + "\n+patched\n*** Add File: "
                    + file("src/New.java") + "\n+new\n*** End Patch");

            assertThat(opencode.before("apply_patch", "call_1", patch).has("error")).isFalse();
            Files.writeString(file(ORDER), "patched\n");
            opencode.after("apply_patch", "call_1", patch, "Success.");
            opencode.idle();

            assertThat(harness.holderOf(ORDER)).contains("ses_patch");
        }
    }

    @Test
    void aFileAnotherSessionHoldsIsDeniedAndTheErrorTheModelReadsNamesItsHolder() throws Exception {
        try (StandInAgent holder = holderWithAChangedCart();
             OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_second")) {
            ObjectNode edit = Json.mapper().createObjectNode().put("filePath", file(CART).toString())
                    .put("oldString", "by the holder").put("newString", "by opencode");

            JsonNode before = opencode.before("edit", "call_1", edit);

            assertThat(before.path("error").asText()).contains(CART + " is held by claude-code session aaaaaaaa")
                    .contains("baton negotiate");
            assertThat(harness.holderOf(CART)).contains(HOLDER);
        }
    }

    @Test
    void whileAnotherSessionHoldsFilesBashRunsThroughTheWrapperAndAWriteToTheHeldFileFails() throws Exception {
        try (StandInAgent holder = holderWithAChangedCart();
             OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_shell")) {
            JsonNode before = opencode.before("bash", "call_1", OpenCodeHost.bash(WRITE_CART));

            String command = before.at("/args/command").asText();
            assertThat(command).as(before.toString()).isEqualTo(HookHarness.SCRIPT.resolveSibling("baton-shell") + " -c '"
                    + WRITE_CART.replace("'", "'\\''") + "'");
            assertThat(before.at("/args/description").asText()).isEqualTo("run it");
            ScriptRun run = opencode.run(command);

            assertThat(run.exit()).isNotZero();
            assertThat(run.stderr()).contains("Read-only file system").contains(CART + " (held by claude-code session aaaaaaaa");
            assertThat(Files.readString(file(CART))).contains("by the holder").doesNotContain("by opencode");
        }
    }

    @Test
    void withNothingHeldByAnotherSessionACommandRunsAsTheModelWroteIt() throws Exception {
        try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_alone")) {
            ObjectNode bash = OpenCodeHost.bash("ls");

            assertThat(opencode.before("bash", "call_1", bash).get("args")).isEqualTo(bash);
        }
    }

    @Test
    void anotherProcessNamingTheSessionIsRefusedAndItsFilesStayWithTheSession() throws Exception {
        try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_owner");
             OpenCodeHost impostor = OpenCodeHost.start(harness, "ses_owner")) {
            assertThat(opencode.before("write", "call_1", OpenCodeHost.write(file(CART), "x\n")).has("error")).isFalse();

            JsonNode forged = impostor.before("write", "call_2", OpenCodeHost.write(file(ORDER), "y\n"));
            impostor.idle();

            assertThat(forged.path("error").asText()).contains("refused the call (403)")
                    .contains("does not come from that session's agent process (pid " + opencode.pid() + ")");
            assertThat(harness.holderOf(ORDER)).isEmpty();
            assertThat(harness.holderOf(CART)).as("the impostor's turn end freed nothing").contains("ses_owner");
        }
    }

    @Test
    void anEditIsBlockedWithTheReasonWhenNoSidecarCanBeReachedUnlessFailOpenIsSet() throws Exception {
        Map<String, String> nowhere = HookHarness.env("BATON_HOME", dir.resolve("no-home").toString(),
                "BATON_BIN", dir.resolve("no-baton").toString(), "BATON_HOOK_START_TIMEOUT", "1", "BATON_HOOK_TIMEOUT", "1");
        try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_down", nowhere)) {
            JsonNode before = opencode.before("write", "call_1", OpenCodeHost.write(file(CART), "x\n"));
            JsonNode shell = opencode.before("bash", "call_2", OpenCodeHost.bash("ls"));
            JsonNode read = opencode.before("read", "call_3", Json.mapper().createObjectNode().put("filePath", file(CART).toString()));

            assertThat(before.path("error").asText()).startsWith("Baton could not check this write call, so it is blocked:")
                    .contains("no sidecar of " + dir.resolve("no-home") + " runs").contains("baton serve");
            assertThat(shell.path("error").asText()).startsWith("Baton could not check this bash call");
            assertThat(read.has("error")).as("a tool that writes nothing is not asked about").isFalse();
        }
        Map<String, String> failOpen = new java.util.HashMap<>(nowhere);
        failOpen.put("BATON_FAIL_OPEN", "1");
        try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_down", failOpen)) {
            assertThat(opencode.before("write", "call_1", OpenCodeHost.write(file(CART), "x\n")).has("error")).isFalse();
        }
    }

    @Test
    void anOpenCodeWithBatonTurnedOffGetsNoHooksAtAll() throws Exception {
        for (Map<String, String> off : java.util.List.of(HookHarness.env("CLAUDE_FILE_LOCK", "0"), HookHarness.env("BATON", "off"))) {
            try (OpenCodeHost opencode = OpenCodeHost.start(harness, "ses_off", off)) {
                assertThat(opencode.hooks()).as(off.toString()).isEmpty();
            }
        }
    }

    @Test
    void theFirstEditStartsASidecarWhenNoneRuns() throws Exception {
        harness.close();
        HookHarness cold = HookHarness.withoutSidecar(dir.resolve("cold"));
        try (OpenCodeHost opencode = OpenCodeHost.start(cold, "ses_cold", HookHarness.env(
                "BATON_BIN", cold.startingWrapper().toString(), "BATON_HOOK_START_TIMEOUT", "60"))) {
            JsonNode before = opencode.before("write", "call_1",
                    OpenCodeHost.write(cold.repo().path(CART), "x\n"));

            assertThat(before.has("error")).as(before.toString()).isFalse();
            assertThat(cold.home().readEndpoint()).isPresent();
        } finally {
            cold.stopSidecarTheScriptStarted();
        }
    }
}
