package dev.baton;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sidecar's floors, from the bottom: the state kernel, which stores and versions rows and knows no
 * entity; the domain packages, each owning its rows, changes and rules; the application (the {@link Baton}
 * facade and the modules built on it: deadlocks, the shell guard, the change stream); and the adapters that
 * face the outside world. An import may only point down, so a package can be read, and replaced, without
 * the floors above it.
 */
class ArchitectureTest {

    private static final String KERNEL = "dev.baton.state..";
    private static final String[] DOMAIN = {
        "dev.baton.session..", "dev.baton.liveness..", "dev.baton.lock..", "dev.baton.message..",
        "dev.baton.negotiation..", "dev.baton.plan..", "dev.baton.audit..", "dev.baton.git..", "dev.baton.version.."};
    /** The facade that composes the domain, and the modules that work through it. */
    private static final String[] APPLICATION = {
        "dev.baton", "dev.baton.deadlock..", "dev.baton.shell..", "dev.baton.events.."};
    private static final String[] ADAPTERS = {
        "dev.baton.http..", "dev.baton.hook..", "dev.baton.mcp..", "dev.baton.cli..", "dev.baton.store..",
        "dev.baton.server..", "dev.baton.team..", "dev.baton.agent.."};

    /** Each agent's own package: its dialects, which only the registry names. */
    private static final String AGENTS = "dev.baton.agent.*..";
    /** The one class that lists the agents. */
    private static final String REGISTRY = "dev.baton.agent";

    /**
     * Known arrows that point up or close a cycle, frozen here so that no new one joins them unnoticed: each
     * is a debt to pay, not a permission. The change stream renders its frames with the HTTP API's JSON views
     * (and the API serves the stream), and {@code baton serve} starts the server, which registers the commands.
     */
    private static final List<String[]> FROZEN = List.of(
            new String[] {"dev.baton.events", "dev.baton.http"},
            new String[] {"dev.baton.cli", "dev.baton.server"});

    private static JavaClasses sidecar;

    @BeforeAll
    static void importSidecarClasses() throws URISyntaxException {
        // Only the sidecar's own classes: the home and installer modules below it are on the class path too.
        Path classes = Path.of(Baton.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        sidecar = new ClassFileImporter().importPath(classes);
    }

    @Test
    void everyImportPointsToTheSameFloorOrBelow() {
        LayeredArchitecture floors = layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("Kernel").definedBy(KERNEL)
                .layer("Domain").definedBy(DOMAIN)
                .layer("Application").definedBy(APPLICATION)
                .layer("Adapters").definedBy(ADAPTERS)
                .whereLayer("Kernel").mayNotAccessAnyLayer()
                .whereLayer("Domain").mayOnlyAccessLayers("Kernel")
                .whereLayer("Application").mayOnlyAccessLayers("Kernel", "Domain");
        for (String[] arrow : FROZEN) {
            floors = floors.ignoreDependency(inPackage(arrow[0]), inPackage(arrow[1]));
        }
        floors.check(sidecar);
    }

    @Test
    void theKernelNeedsNothingButTheJdk() {
        classes().that().resideInAPackage(KERNEL)
                .should().onlyDependOnClassesThat().resideInAnyPackage(KERNEL, "java..")
                .check(sidecar);
    }

    @Test
    void onlyAdaptersKnowTheWebServerTheDatabaseOrTheCommandLineLibrary() {
        noClasses().that().resideInAnyPackage(KERNEL).or().resideInAnyPackage(DOMAIN)
                .or().resideInAnyPackage(APPLICATION)
                .should().dependOnClassesThat().resideInAnyPackage("io.javalin..", "java.sql..", "javax.sql..",
                        "org.sqlite..", "picocli..")
                .check(sidecar);
    }

    @Test
    void noTwoPackagesDependOnEachOtherEvenThroughOthers() {
        SliceRule acyclic = slices().assignedFrom(TOP_PACKAGES).should().beFreeOfCycles();
        for (String[] arrow : FROZEN) {
            acyclic = acyclic.ignoreDependency(inPackage(arrow[0]), inPackage(arrow[1]));
        }
        acyclic.check(sidecar);
    }

    @Test
    void noAgentPackageKnowsAnotherAgent() {
        slices().matching("dev.baton.agent.(*)..").should().notDependOnEachOther().check(sidecar);
    }

    @Test
    void theCoreKnowsAgentsOnlyThroughTheRegistry() {
        noClasses().that().resideOutsideOfPackages(AGENTS, REGISTRY)
                .should().dependOnClassesThat().resideInAPackage(AGENTS)
                .check(sidecar);
        noClasses().that().resideInAPackage(AGENTS)
                .should().dependOnClassesThat().resideInAPackage(REGISTRY)
                .check(sidecar);
    }

    private static DescribedPredicate<JavaClass> inPackage(String name) {
        return JavaClass.Predicates.resideInAPackage(name);
    }

    /** A slice per package right below dev.baton, and one for dev.baton itself. */
    private static final SliceAssignment TOP_PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.equals("dev.baton")) {
                return SliceIdentifier.of("dev.baton");
            }
            if (!name.startsWith("dev.baton.")) {
                return SliceIdentifier.ignore();
            }
            return SliceIdentifier.of("dev.baton." + name.substring("dev.baton.".length()).split("\\.")[0]);
        }

        @Override
        public String getDescription() {
            return "the packages of dev.baton";
        }
    };
}
