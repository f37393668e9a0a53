package dev.baton.installer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.apparmor.SimulatedKernel;
import dev.baton.installer.doctor.Check;
import dev.baton.installer.layout.Scope;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code baton doctor} says per agent which mode its shell commands run in, and why, on a simulated Ubuntu 24.04. */
class AppArmorDoctorTest extends MachineFixture {

    /**
     * Stands in for the wrapper where AppArmor strips its namespace of capabilities: it says what the compiled wrapper
     * says when its first mount fails, and runs the program with nothing read-only.
     */
    static final String RESTRICTED_WRAPPER = """
            #!/usr/bin/env bash
            while (($#)) && [[ $1 != -- ]]; do shift; done; shift
            echo "Baton could not make the files other sessions hold read-only for this command (mount propagation:\
             Permission denied); it runs with Baton's checks before and after it only." >&2
            exec "$@"
            """;

    @Test
    void whereAppArmorStopsTheWrapperEveryAgentsCommandsArePredictedOnlyWithTheRootStepAsFix() throws Exception {
        new SimulatedKernel(machine.system).ubuntu2404();
        machine.install(Scope.USER);
        restrictWrapper();
        Path profile = machine.layout().shellWrapper().resolveSibling("baton-shell.apparmor");
        String fix = "fix: sudo install -m 0644 " + profile + " /etc/apparmor.d/baton-shell"
                + " && sudo apparmor_parser -r /etc/apparmor.d/baton-shell";

        List<Check> checks = doctor().run();

        assertThat(checks).filteredOn(check -> check.subject().equals("shell guard")).singleElement()
                .satisfies(check -> {
                    assertThat(check.status()).isEqualTo(Check.Status.SKIPPED);
                    assertThat(check.detail()).isEqualTo("predicted only: AppArmor restricts user namespaces"
                            + " (kernel.apparmor_restrict_unprivileged_userns=1) and no AppArmor profile lets Baton's"
                            + " wrapper make one; " + fix);
                });
        for (String agent : List.of("Claude", "Codex", "Copilot", "Gemini", "OpenCode")) {
            assertThat(checks).as(agent).filteredOn(check -> check.subject().equals(agent + " shell")).singleElement()
                    .satisfies(check -> {
                        assertThat(check.status()).isEqualTo(Check.Status.SKIPPED);
                        assertThat(check.detail()).startsWith("predicted only: ")
                                .endsWith("; AppArmor restricts user namespaces (kernel.apparmor_restrict_unprivileged_userns=1)"
                                        + " and no AppArmor profile lets Baton's wrapper make one; " + fix);
                    });
        }
        // Predicted only is how this machine is, not a fault of the install.
        StringWriter out = new StringWriter();
        Doctor.report(checks, new PrintWriter(out));
        assertThat(out.toString()).contains("– Claude shell     predicted only: every Bash command runs through"
                + " Baton's wrapper (CLAUDE_CODE_SHELL_PREFIX); AppArmor restricts user namespaces");
    }

    @Test
    void anInstallThatPredatesTheProfileIsToldToRunInstallFirst() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        new SimulatedKernel(machine.system).ubuntu2404();
        restrictWrapper();

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("shell guard")).singleElement()
                .satisfies(check -> assertThat(check.detail()).contains("fix: run `baton install` again (it writes "
                        + machine.layout().shellWrapper().resolveSibling("baton-shell.apparmor") + "), then sudo install"));
    }

    @Test
    void whereTheWrapperEnforcesEveryAgentsCommandsAreSaidToBeEnforced() throws Exception {
        machine.install(Scope.USER);

        List<Check> checks = doctor().run();

        for (String agent : List.of("Claude", "Codex", "Copilot", "Gemini", "OpenCode")) {
            assertThat(checks).as(agent).filteredOn(check -> check.subject().equals(agent + " shell")).singleElement()
                    .satisfies(check -> {
                        assertThat(check.status()).isEqualTo(Check.Status.OK);
                        assertThat(check.detail()).startsWith("enforced: ");
                    });
        }
    }

    @Test
    void aWrapperStoppedForAnotherReasonKeepsItsOwnWords() throws Exception {
        machine.install(Scope.USER, Agents.CLAUDE);
        restrictWrapper();

        assertThat(doctor().run()).filteredOn(check -> check.subject().equals("Claude shell")).singleElement()
                .satisfies(check -> assertThat(check.detail()).contains("(mount propagation: Permission denied)")
                        .doesNotContain("AppArmor"));
    }

    private void restrictWrapper() throws Exception {
        Path wrapper = machine.layout().shellWrapper();
        Files.writeString(wrapper, RESTRICTED_WRAPPER);
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Doctor doctor() {
        return new Doctor(machine.layout(), machine.project, Duration.ofSeconds(2), machine.env, machine.system);
    }
}
