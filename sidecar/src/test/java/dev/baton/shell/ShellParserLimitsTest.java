package dev.baton.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Input no agent writes, as a hostile or broken payload might carry it: read without failing, never followed. */
class ShellParserLimitsTest {

    private final ShellAnalyzer analyzer = new ShellAnalyzer(ShellCorpusTest.VIEW, ShellCorpusTest::patchPaths);

    @Test
    void aMillionNestedSubshellsAreRefusedAsUnknownWithoutExhaustingTheStack() {
        String command = "( ".repeat(500_000) + "touch x" + " )".repeat(500_000);

        ShellAnalysis analysis = analyzer.analyse(command, Path.of("/repo"));

        assertThat(analysis.writes()).isEmpty();
        assertThat(analysis.unknown()).singleElement().asString().contains("nested more than 64 levels deep");
    }

    @Test
    void deeplyNestedBackquotesAndSubstitutionsAreRefusedAsUnknown() {
        String command = "echo " + "$(".repeat(100_000) + "touch x" + ")".repeat(100_000);

        assertThat(analyzer.analyse(command, Path.of("/repo")).unknown()).isNotEmpty();
    }

    @Test
    void aCommandWithoutAWorkingDirectoryLeavesRelativeTargetsUnknownAndAbsoluteOnesKnown() {
        ShellAnalysis analysis = analyzer.analyse("touch rel.txt /tmp/abs.txt", null);

        assertThat(analysis.unknown()).isNotEmpty();
        assertThat(analysis.writes()).extracting(WriteTarget::path).containsExactly(Path.of("/tmp/abs.txt"));
    }
}
