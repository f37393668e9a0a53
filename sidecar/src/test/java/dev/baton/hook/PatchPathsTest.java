package dev.baton.hook;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.http.Json;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class PatchPathsTest {

    private static JsonNode sample(String name) throws IOException {
        try (InputStream in = PatchPathsTest.class.getResourceAsStream("/hook-samples/" + name)) {
            return Json.mapper().readTree(in);
        }
    }

    @Test
    void theCopilotSamplePatchWritesFiveFiles() throws IOException {
        String patch = sample("copilot-pretooluse-apply-patch.json").get("toolArgs").textValue();

        assertThat(PatchPaths.looksLikePatch(patch)).isTrue();
        assertThat(PatchPaths.of(patch)).containsExactly("src/main/java/shop/Cart.java", "src/main/java/shop/Tax.java",
                "src/main/java/shop/Legacy.java", "src/main/java/shop/Old.java", "src/main/java/shop/New.java");
    }

    @Test
    void theCodexSamplePatchWritesOneFile() throws IOException {
        String patch = sample("codex-pretooluse-apply-patch.json").at("/tool_input/command").textValue();

        assertThat(PatchPaths.of(patch)).containsExactly("src/main/java/shop/Cart.java");
    }

    @Test
    void everyAddUpdateDeleteAndMoveLineNamesAFile() {
        String patch = """
                *** Begin Patch
                *** Update File: src/App.java
                @@
                -a
                +b
                *** Add File: src/New.java
                +class New {}
                *** Delete File: src/Gone.java
                *** Update File: src/Old.java
                *** Move to: src/Renamed.java
                @@
                -x
                +y
                *** End Patch
                """;

        assertThat(PatchPaths.of(patch)).containsExactly(
                "src/App.java", "src/New.java", "src/Gone.java", "src/Old.java", "src/Renamed.java");
    }

    @Test
    void aFileNamedTwiceIsListedOnce() {
        String patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-1\n+2\n*** Update File: a.txt\n@@\n-3\n+4\n*** End Patch\n";

        assertThat(PatchPaths.of(patch)).containsExactly("a.txt");
    }

    @Test
    void windowsLineEndingsAndSpacesInNamesAreHandled() {
        String patch = "*** Begin Patch\r\n*** Add File: docs/Übersicht – café.md\r\n+x\r\n*** End Patch\r\n";

        assertThat(PatchPaths.of(patch)).containsExactly("docs/Übersicht – café.md");
    }

    @Test
    void contentLinesThatMerelyMentionAMarkerInsideAHunkStillCountOnlyAtLineStart() {
        String patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n+see *** Add File: nothing.txt\n*** End Patch\n";

        assertThat(PatchPaths.of(patch)).containsExactly("a.txt");
    }

    @Test
    void aPatchWithoutFilesNamesNone() {
        assertThat(PatchPaths.of("*** Begin Patch\n*** End Patch\n")).isEmpty();
        assertThat(PatchPaths.looksLikePatch("echo hello")).isFalse();
    }

    @Test
    void theCapturedCodexShellHeredocWritesThePatchedFile() throws IOException {
        String command = sample("captured/codex-PreToolUse-Bash.json").at("/tool_input/command").textValue();

        assertThat(PatchPaths.ofShellCommand(command)).contains(java.util.List.of("src/A.java"));
    }

    @Test
    void aHeredocAfterCdNamesFilesUnderThatDirectory() {
        String command = "cd 'web app' && apply_patch <<\"PATCH\"\n*** Begin Patch\n*** Add File: src/new.js\n+x\n"
                + "*** Update File: /abs/b.js\n@@\n-a\n+b\n*** End Patch\nPATCH\n";

        assertThat(PatchPaths.ofShellCommand(command)).contains(java.util.List.of("web app/src/new.js", "/abs/b.js"));
    }

    @Test
    void aShellCommandThatOnlyMentionsAPatchIsNoEdit() {
        assertThat(PatchPaths.ofShellCommand("grep -rn '*** Begin Patch' docs/")).isEmpty();
        assertThat(PatchPaths.ofShellCommand("cat <<'EOF' > notes.md\n*** Begin Patch\n*** Add File: x.txt\n+x\n"
                + "*** End Patch\nEOF\n")).isEmpty();
        assertThat(PatchPaths.ofShellCommand("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x.txt\n+x\n"
                + "*** End Patch\nEOF\nrm -rf build")).isEmpty();
    }
}
