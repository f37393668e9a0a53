package dev.baton.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.baton.hook.HookParsing;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * The {@code apply_patch} path reader against the patch grammar: on any text it returns distinct,
 * trimmed, one-line paths without failing; on a patch the tools would apply it names exactly the
 * files that patch writes (a missed file is an edit made without its lock, an extra one a lock
 * nobody needed). An input is the patch text in UTF-8.
 */
class PatchPathsFuzzTest {

    static final FuzzRun run = new FuzzRun("patch-paths");

    @AfterAll
    static void report() {
        run.report();
    }

    /** A path without whitespace before it: between a marker and its path it is part of no real name. */
    private static String withoutLeadingSpace(String path) {
        int start = 0;
        while (start < path.length() && (PatchGrammar.isWhiteSpace(path.charAt(start)) || Character.isWhitespace(path.charAt(start)))) {
            start++;
        }
        return path.substring(start);
    }

    @FuzzTest(maxDuration = "30s")
    void patchesNameExactlyTheFilesTheyWrite(byte[] input) {
        run.executed();
        String patch = new String(input, StandardCharsets.UTF_8);

        List<String> paths = HookParsing.patchPaths(patch);

        assertThat(new HashSet<>(paths)).as("distinct").hasSameSizeAs(paths);
        for (String path : paths) {
            assertThat(path).isNotEmpty().doesNotContain("\n").isEqualTo(PatchGrammar.trim(path));
        }
        List<String> written = PatchGrammar.paths(patch);
        if (written == null) {
            run.answered("not applicable");
            return;
        }
        run.answered("applicable");
        assertThat(HookParsing.looksLikePatch(patch)).as("a patch the tools apply is recognised").isTrue();
        // The tools keep whitespace between a marker and its path in the name, the reader drops it: compare without.
        List<String> named = paths.stream().map(PatchPathsFuzzTest::withoutLeadingSpace).filter(path -> !path.isEmpty()).toList();
        List<String> expected = written.stream().map(PatchPathsFuzzTest::withoutLeadingSpace).filter(path -> !path.isEmpty()).toList();
        assertThat(named).as("files the patch writes, read from%n%s", patch).containsAll(expected);
        assertThat(expected).as("files named, read from%n%s", patch).containsAll(named);
    }
}
