package dev.baton.installer;

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
 * files ({@code config}); the doctor's checks and probes ({@code doctor}); each agent's wiring and checks ({@code
 * agents}); and beside them the user service ({@code service}) and the program files ({@code program}). The commands
 * in {@code dev.baton.installer} compose them. An import points down only, so no two packages import each other.
 */
class InstallerArchitectureTest {

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
                .layer("Agents").definedBy("dev.baton.installer.agents..")
                .layer("Service").definedBy("dev.baton.installer.service..")
                .layer("Program").definedBy("dev.baton.installer.program..")
                .layer("Doctor").definedBy("dev.baton.installer.doctor..")
                .layer("Config").definedBy("dev.baton.installer.config..")
                .layer("Layout").definedBy("dev.baton.installer.layout..")
                .whereLayer("Commands").mayNotBeAccessedByAnyLayer()
                .whereLayer("Agents").mayOnlyBeAccessedByLayers("Commands")
                .whereLayer("Service").mayOnlyBeAccessedByLayers("Commands", "Doctor")
                .whereLayer("Program").mayOnlyBeAccessedByLayers("Commands")
                .whereLayer("Doctor").mayOnlyBeAccessedByLayers("Commands", "Agents")
                .whereLayer("Config").mayOnlyBeAccessedByLayers("Commands", "Agents", "Doctor", "Program")
                .check(installer);
    }

    @Test
    void noTwoPackagesDependOnEachOtherEvenThroughOthers() {
        slices().matching("dev.baton.installer.(**)").should().beFreeOfCycles().check(installer);
    }
}
