package dev.baton.installer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.baton.installer.layout.InstallLayout;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The installer by role, from the bottom: where things are installed ({@code layout}); editing the agents' config
 * files ({@code config}); the doctor's checks and probes ({@code doctor}); what agents share and the interface each
 * implements ({@code agents}); and beside them the user service ({@code service}), the program files ({@code
 * program}) and what AppArmor asks of the shell wrapper ({@code apparmor}). Above the roles, one package per agent ({@code dev.baton.agent.claude}, …) and the one list of them
 * ({@code dev.baton.agent}); the commands in {@code dev.baton.installer} compose them. An import points down only, so
 * no two packages import each other, and no agent's package knows another.
 */
class InstallerArchitectureTest {

    /** Each agent's own package, which only the registry names. */
    private static final String AGENTS = "dev.baton.agent.*..";
    /** The one class that lists the agents. */
    private static final String REGISTRY = "dev.baton.agent";
    private static final String[] ROLES = {"dev.baton.installer.agents..", "dev.baton.installer.service..",
        "dev.baton.installer.program..", "dev.baton.installer.apparmor..", "dev.baton.installer.doctor..",
        "dev.baton.installer.config..", "dev.baton.installer.layout.."};

    private static JavaClasses installer;

    @BeforeAll
    static void importInstallerClasses() throws URISyntaxException {
        // Only the installer's own classes, not its tests or the modules below it.
        Path classes = Path.of(InstallLayout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        installer = new ClassFileImporter().importPath(classes);
    }

    @Test
    void everyImportPointsDown() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("Commands").definedBy("dev.baton.installer")
                .layer("Registry").definedBy(REGISTRY)
                .layer("Agent packages").definedBy(AGENTS)
                .layer("Agents").definedBy("dev.baton.installer.agents..")
                .layer("AppArmor").definedBy("dev.baton.installer.apparmor..")
                .layer("Service").definedBy("dev.baton.installer.service..")
                .layer("Program").definedBy("dev.baton.installer.program..")
                .layer("Doctor").definedBy("dev.baton.installer.doctor..")
                .layer("Config").definedBy("dev.baton.installer.config..")
                .layer("Layout").definedBy("dev.baton.installer.layout..")
                .whereLayer("Commands").mayNotBeAccessedByAnyLayer()
                .whereLayer("Registry").mayOnlyBeAccessedByLayers("Commands")
                .whereLayer("Agent packages").mayOnlyBeAccessedByLayers("Registry")
                .whereLayer("Agents").mayOnlyBeAccessedByLayers("Commands", "Registry", "Agent packages")
                .whereLayer("AppArmor").mayOnlyBeAccessedByLayers("Commands", "Agents")
                .whereLayer("Service").mayOnlyBeAccessedByLayers("Commands", "Doctor")
                .whereLayer("Program").mayOnlyBeAccessedByLayers("Commands")
                .whereLayer("Doctor").mayOnlyBeAccessedByLayers("Commands", "Agents", "Agent packages")
                .whereLayer("Config").mayOnlyBeAccessedByLayers("Commands", "Agents", "AppArmor", "Agent packages", "Doctor",
                        "Program")
                .check(installer);
    }

    @Test
    void noTwoPackagesDependOnEachOtherEvenThroughOthers() {
        slices().matching("dev.baton.(**)").should().beFreeOfCycles().check(installer);
    }

    @Test
    void noAgentPackageKnowsAnotherAgent() {
        slices().matching("dev.baton.agent.(*)..").should().notDependOnEachOther().check(installer);
    }

    @Test
    void theCoreKnowsAgentsOnlyThroughTheRegistry() {
        noClasses().that().resideOutsideOfPackages(AGENTS, REGISTRY)
                .should().dependOnClassesThat().resideInAPackage(AGENTS)
                .check(installer);
        noClasses().that().resideInAPackage(AGENTS)
                .should().dependOnClassesThat().resideInAPackage(REGISTRY)
                .check(installer);
    }

    @Test
    void theRolePackagesKnowNoAgent() {
        noClasses().that().resideInAnyPackage(ROLES)
                .should().dependOnClassesThat().resideInAnyPackage(AGENTS, REGISTRY)
                .check(installer);
    }
}
