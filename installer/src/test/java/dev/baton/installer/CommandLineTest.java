package dev.baton.installer;

import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.program.ProgramSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandLineTest extends MachineFixture {

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    @Test
    void installWithAnAgentFlagAndScopeInstallsOnlyThatAgent() {
        int exit = run(install(), "--claude", "--scope", "project", "--project", machine.project.toString());

        assertThat(exit).isZero();
        assertThat(machine.project.resolve(".claude/settings.json")).exists();
        assertThat(machine.project.resolve(".mcp.json")).exists();
        assertThat(machine.project.resolve(".github")).doesNotExist();
    }

    @Test
    void anUnknownScopeIsAUsageErrorListingTheValidScopes() {
        int exit = run(install(), "--scope", "global");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("unknown scope 'global': use user, project or local")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aProjectThatIsNotADirectoryIsAUsageError() {
        int exit = run(install(), "--scope", "project", "--project", machine.root.resolve("nowhere").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--project " + machine.root.resolve("nowhere") + " is not a directory (it does not exist)")
                .doesNotContain("\tat ");
        assertThat(machine.home.resolve(".local")).doesNotExist();
    }

    @Test
    void anUnparseableSettingsFileExitsWithOneAndNamesTheFile() throws Exception {
        write(machine.userSettings(), "{\"model\": \"opus\"\n");

        int exit = run(install(), "--claude");

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).startsWith("baton install: Refusing to edit " + machine.userSettings())
                .doesNotContain("\tat ");
    }

    @Test
    void uninstallThroughTheCommandRemovesWhatInstallAdded() {
        run(install(), "--copilot", "--scope", "project", "--project", machine.project.toString());

        int exit = run(new UninstallCommand(machine.env), "--copilot", "--scope", "project", "--project", machine.project.toString());

        assertThat(exit).isZero();
        assertThat(machine.project.resolve(".github/hooks/baton.json")).doesNotExist();
    }

    @Test
    void doctorExitsWithOneWhenSomethingIsMissing() {
        int exit = run(new DoctorCommand(machine.env), "--project", machine.project.toString());

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString()).contains("✘ sidecar").contains("fix:");
    }

    @Test
    void theCommandsCarryTheNamesTheBatonCommandRegistersThemUnder() {
        assertThat(new CommandLine(new InstallCommand()).getCommandName()).isEqualTo("install");
        assertThat(new CommandLine(new UninstallCommand()).getCommandName()).isEqualTo("uninstall");
        assertThat(new CommandLine(new DoctorCommand()).getCommandName()).isEqualTo("doctor");
    }

    private InstallCommand install() {
        return new InstallCommand(machine.env, TestMachine.SCRIPT, new ProgramSource(machine.jar, machine.jar.toString()));
    }

    private int run(Object command, String... args) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }
}
