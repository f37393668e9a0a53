package dev.baton.installer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.installer.layout.HookScript;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.program.ProgramSource;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PackagedHookScriptTest {

    @TempDir
    Path temp;

    @Test
    void installCopiesThePackagedHookScriptByteForByte() throws Exception {
        assumeTrue(getClass().getClassLoader().getResource(HookScript.RESOURCE) != null,
                "the hook-scripts module does not ship " + HookScript.RESOURCE + " yet");
        HookScript packaged = HookScript.packaged();
        TestMachine machine = new TestMachine(temp);
        Installer installer = new Installer(machine.layout(), packaged, new ProgramSource(machine.jar, ""),
                new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()));

        installer.install(machine.target(Scope.USER), false, false);

        assertThat(Files.readAllBytes(machine.layout().hookScript())).isEqualTo(packaged.content());
        assertThat(machine.layout().hookScript()).isExecutable();
        assertThat(packaged.companions()).containsOnlyKeys(HookScript.COMPANIONS);
        for (String companion : HookScript.COMPANIONS) {
            Path installed = machine.layout().hookScript().resolveSibling(companion);
            assertThat(Files.readAllBytes(installed)).as(companion).isEqualTo(packaged.companions().get(companion));
        }
        assertThat(machine.layout().mcpScript()).isExecutable();
    }
}
