package dev.baton.installer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.home.BatonHome;
import dev.baton.installer.layout.InstallerException;
import dev.baton.installer.layout.Scope;
import dev.baton.installer.service.ServiceManagerCall;
import dev.baton.installer.service.SystemdUnits;
import dev.baton.installer.service.UserService;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code baton service …}: the unit files' content, and what install, uninstall, status and doctor do and say. */
class UserServiceTest extends MachineFixture {

    private final StringWriter out = new StringWriter();

    @Test
    void theSystemdUnitsQuoteTheirPathsAndListenOnTheConfiguredLoopbackPort() throws Exception {
        machine.env.put("XDG_DATA_HOME", machine.root.resolve("my data 50%").toString());
        Path batonHome = machine.root.resolve("state \"q\" $HOME 100%");
        machine.env.put("BATON_HOME", batonHome.toString());
        machine.env.put("BATON_PORT", "7999");
        machine.install(Scope.USER);
        Path launcher = machine.layout().hookLauncher();

        SystemdUnits units = service().units();

        assertThat(units.socket()).contains("\nListenStream=127.0.0.1:7999\n", "\nAccept=no\n", "\nWantedBy=sockets.target\n");
        assertThat(units.service())
                .contains("\nExecStart=\"" + launcher.toString().replace("%", "%%") + "\" serve\n")
                .contains("\nEnvironment=\"BATON_HOME=" + batonHome.toString().replace("\"", "\\\"").replace("%", "%%") + "\"\n")
                .contains("\nStandardInput=socket\n", "\nStandardOutput=journal\n", "\nStandardError=journal\n")
                .contains("\nRequires=baton.socket\n", "\nWantedBy=default.target\n");
        Optional<Path> analyze = onPath("systemd-analyze");
        if (analyze.isEmpty()) {
            System.out.println("systemd-analyze is not on PATH: the units' syntax was not checked by systemd itself");
            return;
        }
        // systemd's own parser: the quoted program must resolve to the installed launcher, with its space and %.
        Path dir = Files.createDirectories(machine.root.resolve("units"));
        Files.writeString(dir.resolve("baton.socket"), units.socket());
        Files.writeString(dir.resolve("baton.service"), units.service());
        ServiceManagerCall verify = ServiceManagerCall.run(List.of(analyze.get().toString(), "verify",
                dir.resolve("baton.service").toString(), dir.resolve("baton.socket").toString()));
        assertThat(verify.output()).doesNotContain("not executable", "special characters", "bad unit file setting");
        assertThat(verify.exit()).as(verify.output()).isZero();
    }

    @Test
    void theLaunchdAgentRunsTheLauncherAtLoginAndKeepsItAlive() throws Exception {
        machine.env.put("XDG_DATA_HOME", machine.root.resolve("data & <more>").toString());
        machine.install(Scope.USER);

        String plist = service().agent().plist();

        assertThat(plist).contains("<key>Label</key><string>dev.baton.sidecar</string>")
                .contains("<string>" + machine.layout().hookLauncher().toString().replace("&", "&amp;").replace("<", "&lt;")
                        .replace(">", "&gt;") + "</string><string>serve</string>")
                .contains("<key>RunAtLoad</key><true/>", "<key>KeepAlive</key><true/>")
                .contains("<key>BATON_HOME</key><string>" + machine.layout().batonHome() + "</string>")
                .contains("<key>BATON_PORT</key><string>7433</string>");
        assertThat(service().launchdPlist()).isEqualTo(machine.home.resolve("Library/LaunchAgents/dev.baton.sidecar.plist"));
    }

    @Test
    void withoutAUserManagerInstallWritesTheUnitsAndSaysTheHooksKeepStartingTheSidecar() throws Exception {
        assumeNoUserManager();
        machine.install(Scope.USER);

        int exit = service().install(new PrintWriter(out, true), false);

        assertThat(exit).isZero();
        assertThat(service().socketUnit()).exists();
        assertThat(service().serviceUnit()).exists();
        assertThat(machine.home.resolve(".config/systemd/user/baton.socket")).exists();
        assertThat(out.toString()).contains("The user's systemd is not reachable here (systemctl --user show-environment:")
                .contains("the hooks keep starting the sidecar on demand");
        // The hook is told where the socket would be: finding nothing there, it starts the sidecar itself.
        assertThat(new BatonHome(machine.layout().batonHome()).readServiceSocketPort()).contains(7433);
        UserService.Report status = service().status();
        assertThat(status.mode()).isEqualTo(UserService.Mode.UNREACHABLE);
        assertThat(status.summary()).contains("the user's systemd is not reachable here")
                .contains("the hooks start the sidecar on demand");
        assertThat(doctorLine()).startsWith("✔ service").contains("not reachable");
        StringWriter printed = new StringWriter();
        int statusExit = new picocli.CommandLine(new ServiceCommand(machine.env)).setOut(new PrintWriter(printed))
                .execute("status");
        assertThat(statusExit).isZero();
        assertThat(printed.toString()).contains("the user's systemd is not reachable here")
                .contains("the hooks start the sidecar on demand");
    }

    @Test
    void withoutTheServiceStatusAndDoctorSayTheHooksStartTheSidecarOnDemand() throws Exception {
        machine.install(Scope.USER);

        UserService.Report status = service().status();

        assertThat(status.mode()).isEqualTo(UserService.Mode.ON_DEMAND);
        assertThat(status.summary()).startsWith("on demand: no systemd user units");
        assertThat(doctorLine()).startsWith("✔ service").contains("on demand");
    }

    @Test
    void theServiceCarriesTheTeamSettingsOfTheInstallingShellInAFileOnlyTheUserReads() throws Exception {
        assumeNoUserManager();
        machine.install(Scope.USER);
        String url = "postgresql://baton:s3cr\"e`t$PW\\x@db.example:5432/locks?sslmode=verify-full";
        machine.env.put("BATON_TEAM_URL", url);
        machine.env.put("BATON_TEAM_TTL", "90s");
        machine.env.put("PGPASSFILE", machine.root.resolve("pgpass").toString());
        machine.env.put("BATON_SHELL_ENFORCE", "off"); // not the team's: stays with the shell

        service().install(new PrintWriter(out, true), false);

        Path settings = new BatonHome(machine.layout().batonHome()).serviceEnvironmentFile();
        assertThat(Files.getPosixFilePermissions(settings)).containsExactlyInAnyOrder(
                java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        assertThat(Files.readString(service().serviceUnit())).contains("\nEnvironmentFile=-" + settings + "\n")
                .doesNotContain("s3cr");
        assertThat(out.toString()).contains("BATON_TEAM_TTL, BATON_TEAM_URL, PGPASSFILE").doesNotContain("s3cr");
        // Read back as a shell reads double-quoted values (systemd's EnvironmentFile escapes the same characters).
        ServiceManagerCall read = ServiceManagerCall.run(List.of("sh", "-c",
                "set -a; . \"$0\"; printf '%s|%s|%s|%s' \"$BATON_TEAM_URL\" \"$BATON_TEAM_TTL\" \"$PGPASSFILE\" \"${BATON_SHELL_ENFORCE-unset}\"",
                settings.toString()));
        assertThat(read.output()).isEqualTo(url + "|90s|" + machine.root.resolve("pgpass") + "|unset");
        assertThat(service().agent().plist()).contains("<key>BATON_TEAM_URL</key><string>"
                + url.replace("&", "&amp;") + "</string>").doesNotContain("BATON_SHELL_ENFORCE");

        machine.env.remove("BATON_TEAM_URL");
        machine.env.remove("BATON_TEAM_TTL");
        machine.env.remove("PGPASSFILE");
        service().install(new PrintWriter(out, true), false);
        assertThat(settings).as("a shell without a team installs a service without one").doesNotExist();

        machine.env.put("BATON_TEAM_URL", "postgresql://db.example/locks\nX=1");
        assertThatThrownBy(() -> service().install(new PrintWriter(out, true), false))
                .hasMessageContaining("BATON_TEAM_URL").hasMessageContaining("printable ASCII on one line")
                .hasMessageContaining("nothing was written");
        assertThat(settings).doesNotExist();
        machine.env.put("BATON_TEAM_URL", "postgresql://db.example/locks");
        service().install(new PrintWriter(out, true), false);
        service().uninstall(new PrintWriter(out, true));
        assertThat(settings).as("uninstall removes it with the units").doesNotExist();
    }

    @Test
    void uninstallRemovesExactlyBatonsFiles() throws Exception {
        assumeNoUserManager();
        machine.install(Scope.USER);
        Path someoneElses = TestMachine.write(machine.home.resolve(".config/systemd/user/other.service"), "[Service]\n");
        service().install(new PrintWriter(out, true), false);

        int exit = service().uninstall(new PrintWriter(out, true));

        assertThat(exit).isZero();
        assertThat(service().socketUnit()).doesNotExist();
        assertThat(service().serviceUnit()).doesNotExist();
        assertThat(someoneElses).hasContent("[Service]");
        assertThat(new BatonHome(machine.layout().batonHome()).serviceSocketFile()).doesNotExist();
        assertThat(out.toString()).contains("removed " + service().socketUnit());
    }

    @Test
    void uninstallPurgeRemovesTheServiceWhoseLauncherItDeletes() throws Exception {
        assumeNoUserManager();
        machine.install(Scope.USER, Agents.CLAUDE);
        service().install(new PrintWriter(out, true), false);

        int exit = new picocli.CommandLine(new UninstallCommand(machine.env)).setOut(new PrintWriter(out, true))
                .execute("--claude", "--purge");

        assertThat(exit).isZero();
        assertThat(machine.layout().hookLauncher()).doesNotExist();
        assertThat(service().socketUnit()).doesNotExist();
        assertThat(service().serviceUnit()).doesNotExist();
    }

    @Test
    void aUnitFileBatonDidNotWriteIsNeitherOverwrittenNorRemoved() throws Exception {
        machine.install(Scope.USER);
        Path foreign = TestMachine.write(machine.home.resolve(".config/systemd/user/baton.socket"), "[Socket]\nListenStream=9\n");

        assertThatThrownBy(() -> service().install(new PrintWriter(out, true), false))
                .isInstanceOf(InstallerException.class).hasMessageContaining("was not written by Baton");
        service().uninstall(new PrintWriter(out, true));

        assertThat(foreign).hasContent("[Socket]\nListenStream=9");
        assertThat(out.toString()).contains("left " + foreign + " alone");
    }

    @Test
    void installBeforeTheLauncherExistsSaysToRunBatonInstallFirst() {
        assertThatThrownBy(() -> service().install(new PrintWriter(out, true), false))
                .isInstanceOf(InstallerException.class).hasMessageContaining("Run `baton install` first");
    }

    /** The agents need no fixed port any more; the service manager's socket does. */
    @Test
    void portZeroInstallsForTheAgentsButNotAsAService() throws Exception {
        machine.env.put("BATON_PORT", "0");
        machine.install(Scope.USER);

        assertThatThrownBy(() -> service().units())
                .isInstanceOf(InstallerException.class)
                .hasMessageContaining("BATON_PORT=0")
                .hasMessageContaining("service manager's socket");
    }

    private UserService service() {
        return new UserService(machine.layout(), machine.env, UserService.Platform.SYSTEMD);
    }

    private String doctorLine() {
        StringWriter report = new StringWriter();
        Doctor.report(new Doctor(machine.layout(), machine.project, Duration.ofSeconds(2), machine.env).run(),
                new PrintWriter(report));
        return report.toString().lines().filter(line -> line.contains(" service ")).findFirst().orElse("(no service line)");
    }

    private void assumeNoUserManager() {
        Optional<String> unreachable = service().systemdUnreachable();
        if (unreachable.isEmpty()) {
            System.out.println("skipped: this machine's user systemd is reachable, and this test is about one that is not");
        }
        assumeTrue(unreachable.isPresent(), "the user's systemd is reachable here");
    }

    private static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, program))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
