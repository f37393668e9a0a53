package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.apparmor.ShellWrapperProfile;
import dev.baton.installer.apparmor.SimulatedKernel;
import dev.baton.installer.layout.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code baton install} and {@code baton uninstall --purge} on a simulated Ubuntu 24.04, in a fresh home. */
class AppArmorInstallTest extends MachineFixture {

    @Test
    void onUbuntu2404TheInstallWritesTheWrappersProfileAndSaysTheOneRootStep() throws Exception {
        new SimulatedKernel(machine.system).ubuntu2404();
        Path wrapper = machine.layout().shellWrapper();
        Path profile = wrapper.resolveSibling("baton-shell.apparmor");

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(read(profile)).isEqualTo(ShellWrapperProfile.text(wrapper)).contains("profile baton-shell " + wrapper
                + " flags=(unconfined) {");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(profile))).isEqualTo("rw-r--r--");
        assertThat(machine.out())
                .containsPattern("created +" + profile + "  \\(AppArmor profile for the shell wrapper\\)")
                .contains("note: AppArmor restricts unprivileged user namespaces on this machine")
                .contains("the agents' shell commands are only predicted and checked after they run, not enforced")
                .contains("\n  sudo install -m 0644 " + profile + " /etc/apparmor.d/baton-shell"
                        + " && sudo apparmor_parser -r /etc/apparmor.d/baton-shell\n")
                .doesNotContain("sysctl");
        // Nothing outside the home was written: the root step is the user's.
        assertThat(machine.system.resolve("etc")).doesNotExist();
    }

    @Test
    void aDryRunSaysWhatItWouldWriteAndWritesNothing() throws Exception {
        new SimulatedKernel(machine.system).ubuntu2404();
        Map<Path, String> before = machine.allFiles();
        Path profile = machine.layout().shellWrapper().resolveSibling("baton-shell.apparmor");

        machine.installer().install(machine.target(Scope.USER, Agents.CLAUDE), true, true);

        assertThat(machine.allFiles()).isEqualTo(before);
        assertThat(machine.out()).containsPattern("would be created +" + profile + "  \\(AppArmor profile")
                .contains("sudo apparmor_parser -r /etc/apparmor.d/baton-shell");
    }

    @Test
    void onceTheProfileIsLoadedOrWhereUserNamespacesAreFreeTheInstallSaysNothingOfAppArmor() throws Exception {
        SimulatedKernel kernel = new SimulatedKernel(machine.system).ubuntu2404()
                .profiles("unprivileged_userns (enforce)", "baton-shell (unconfined)");
        machine.install(Scope.USER, Agents.CLAUDE);
        kernel.restrictUserns(false);
        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(machine.out()).doesNotContain("AppArmor");
        assertThat(machine.layout().shellWrapper().resolveSibling("baton-shell.apparmor")).doesNotExist();
    }

    @Test
    void withAPathWithSpacesTheProfileQuotesItAndTheStepQuotesTheFile() throws Exception {
        new SimulatedKernel(machine.system).ubuntu2404();
        machine.env.put("XDG_DATA_HOME", machine.home.resolve("my data").toString());
        Path wrapper = machine.layout().shellWrapper();
        Path profile = wrapper.resolveSibling("baton-shell.apparmor");

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(read(profile)).contains("profile baton-shell \"" + wrapper + "\" flags=(unconfined) {");
        assertThat(machine.out()).contains("sudo install -m 0644 '" + profile + "' /etc/apparmor.d/baton-shell");
    }

    @Test
    void uninstallPurgeDeletesTheProfileItWroteAndSaysTheRootStepThatUnloadsIt() throws Exception {
        SimulatedKernel kernel = new SimulatedKernel(machine.system).ubuntu2404();
        machine.install(Scope.USER, Agents.CLAUDE);
        Path profile = machine.layout().shellWrapper().resolveSibling("baton-shell.apparmor");
        // The user ran the step.
        kernel.installedProfile(read(profile)).profiles("baton-shell (unconfined)");

        machine.uninstaller().uninstall(machine.target(Scope.USER, Agents.CLAUDE), true, false);

        assertThat(profile).doesNotExist();
        assertThat(machine.layout().hookScript().getParent()).doesNotExist();
        assertThat(machine.out()).containsPattern("deleted +" + profile + "  \\(AppArmor profile for the shell wrapper\\)")
                .contains("note: AppArmor still has Baton's profile for the shell wrapper; remove it as root:\n"
                        + "  sudo apparmor_parser -R /etc/apparmor.d/baton-shell && sudo rm /etc/apparmor.d/baton-shell\n");
    }

    @Test
    void uninstallPurgeWithoutAProfileInPlaceSaysNothingOfAppArmor() throws Exception {
        new SimulatedKernel(machine.system).ubuntu2404();
        machine.install(Scope.USER, Agents.CLAUDE);

        machine.uninstaller().uninstall(machine.target(Scope.USER, Agents.CLAUDE), true, false);

        assertThat(machine.out().substring(machine.out().indexOf("Removing Baton"))).doesNotContain("apparmor_parser -R");
    }
}
