package dev.baton.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.hook.HookParsing;
import dev.baton.lock.CanonicalPath;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Hook payloads of every agent, read as the hook endpoint reads them before it changes anything:
 * parse, detect the dialect, read the call, check the cwd, and key every file it names. Anything but
 * a validation error is a finding. An input is a line {@code AGENT EVENT} then the payload's bytes.
 */
class HookPayloadFuzzTest {

    private static final List<String> AGENTS = HookParsing.agents();
    static final FuzzRun run = new FuzzRun("hook-payload");

    @AfterAll
    static void report() {
        run.report();
    }

    @FuzzTest(maxDuration = "30s")
    @DictionaryFile(resourcePath = "/dev/baton/fuzz/json.dict")
    void payloadsAreReadOrRefusedWithAValidationError(byte[] input) {
        run.executed();
        int newline = 0;
        while (newline < input.length && input[newline] != '\n') {
            newline++;
        }
        String[] words = new String(input, 0, newline, StandardCharsets.UTF_8).strip().split(" ", 2);
        String agent = AGENTS.contains(words[0]) ? words[0] : AGENTS.get(Math.floorMod(words[0].hashCode(), AGENTS.size()));
        String event = words.length > 1 ? words[1] : null;
        byte[] payload = newline < input.length ? Arrays.copyOfRange(input, newline + 1, input.length) : new byte[0];

        HookParsing.Parsed call;
        try {
            call = HookParsing.read(agent, event, payload);
        } catch (BatonException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION);
            assertThat(e.getMessage()).isNotBlank();
            run.answered("refused");
            return;
        }
        run.answered(call.agent());
        assertThat(call.files()).doesNotContainNull();
        // A patch may write nothing; every other edit tool must name the file it writes.
        boolean patch = "apply_patch".equalsIgnoreCase(call.tool()) || new String(payload, StandardCharsets.UTF_8).contains("Begin Patch");
        if (call.editTool() && !patch) {
            assertThat(call.files()).as("a single-file edit names its file").isNotEmpty();
        }
        for (String file : call.files()) {
            try {
                String key = CanonicalPath.of(file, call.cwd());
                assertThat(key).startsWith("/");
            } catch (BatonException e) {
                assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION);
            }
        }
    }
}
