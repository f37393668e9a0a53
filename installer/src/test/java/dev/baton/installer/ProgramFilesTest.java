package dev.baton.installer;

import static dev.baton.installer.TestMachine.read;
import static dev.baton.installer.TestMachine.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.installer.layout.Scope;
import dev.baton.installer.program.ClassDataArchive;
import dev.baton.installer.program.JvmOptions;
import dev.baton.installer.program.ProgramSource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProgramFilesTest extends MachineFixture {

    @Test
    void installCopiesTheHookScriptAsAnExecutableAndLinksItFromTheBinDirectory() throws Exception {
        machine.install(Scope.USER);

        Path script = machine.home.resolve(".local/share/baton/hooks/baton-hook");
        assertThat(Files.readAllBytes(script)).isEqualTo(TestMachine.SCRIPT.content());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(script))).isEqualTo("rwxr-xr-x");
        Path link = machine.home.resolve(".local/bin/baton-hook");
        assertThat(Files.readSymbolicLink(link)).isEqualTo(script);
    }

    @Test
    void installCopiesTheRunningJarAndWritesALauncherThatRunsIt() throws Exception {
        machine.install(Scope.USER);

        Path jar = machine.home.resolve(".local/share/baton/lib/baton.jar");
        assertThat(Files.readAllBytes(jar)).isEqualTo(Files.readAllBytes(machine.jar));
        Path launcher = machine.home.resolve(".local/bin/baton");
        assertThat(read(launcher)).isEqualTo("""
                #!/usr/bin/env bash
                # Baton launcher, written by `baton install`; `baton uninstall --purge` removes it.
                jar="%s"
                opts=()
                if [[ -f "${jar%%.jar}.jvmopts" ]]; then opts+=("@${jar%%.jar}.jvmopts"); fi
                if [[ -f "${jar%%.jar}.jsa" ]]; then opts+=("-XX:SharedArchiveFile=${jar%%.jar}.jsa" -Xlog:cds*=off -Xlog:class+path=off); fi
                if [[ "${1:-}" != serve ]]; then opts+=(-XX:TieredStopAtLevel=1); fi
                exec java "${opts[@]}" ${BATON_JAVA_OPTS} -jar "$jar" "$@"
                """.formatted(jar));
        assertThat(launcher).isExecutable();
    }

    @Test
    void installWritesTheJvmOptionsTheBuildShipsBesideTheJar() throws Exception {
        machine.install(Scope.USER);

        Path options = machine.home.resolve(".local/share/baton/lib/baton.jvmopts");
        assertThat(Files.readAllBytes(options)).isEqualTo(JvmOptions.text());
        assertThat(read(options)).contains("-XX:+UseSerialGC").containsPattern("(?m)^-Xmx\\d+m$");
        assertThat(machine.out()).contains("created").contains(options.toString());
    }

    @Test
    void aJarWithoutTheStartUpTrainingGetsNoClassDataArchiveAndSaysWhy() throws Exception {
        machine.install(Scope.USER);

        assertThat(ClassDataArchive.of(machine.layout().installedJar())).doesNotExist();
        assertThat(machine.out()).contains("skipped").contains("baton.jsa")
                .contains("the jar has no " + ClassDataArchive.TRAINING_CLASS);
    }

    @Test
    void theLauncherUsesJavaHomeWhenItIsSet() throws Exception {
        machine.env.put("JAVA_HOME", "/opt/jdk-17");

        machine.install(Scope.USER);

        assertThat(read(machine.layout().launcher())).contains("exec \"/opt/jdk-17/bin/java\" \"${opts[@]}\" ${BATON_JAVA_OPTS} -jar ");
    }

    @Test
    void theLauncherActuallyRunsJavaWithTheOptionsAndArguments() throws Exception {
        useJavaThatPrintsItsArguments();
        machine.install(Scope.USER);

        ProcessBuilder run = new ProcessBuilder(machine.layout().launcher().toString(), "status", "--json");
        run.environment().put("BATON_JAVA_OPTS", "-Xmx64m -Dbaton.quiet=true");
        run.redirectErrorStream(true);
        Process process = run.start();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();

        // The user's options come last, so they override the shipped ones.
        assertThat(new String(process.getInputStream().readAllBytes()).lines().toList()).containsExactly(
                "@" + JvmOptions.of(machine.layout().installedJar()), "-XX:TieredStopAtLevel=1", "-Xmx64m", "-Dbaton.quiet=true",
                "-jar", machine.layout().installedJar().toString(), "status", "--json");
    }

    @Test
    void theLauncherStartsTheSidecarWithTheFullJitAndTheArchiveBesideTheJar() throws Exception {
        useJavaThatPrintsItsArguments();
        machine.install(Scope.USER);
        Path archive = write(ClassDataArchive.of(machine.layout().installedJar()), "archive");

        Process process = new ProcessBuilder(machine.layout().launcher().toString(), "serve").redirectErrorStream(true).start();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();

        assertThat(new String(process.getInputStream().readAllBytes()).lines().toList()).containsExactly(
                "@" + JvmOptions.of(machine.layout().installedJar()), "-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off",
                "-Xlog:class+path=off", "-jar", machine.layout().installedJar().toString(), "serve");
    }

    /** The two launchers are written apart (bash in the checkout, text from the installer): they must not drift. */
    @ParameterizedTest(name = "baton {0}")
    @ValueSource(strings = {"status", "serve"})
    void theInstalledLauncherRunsJavaJustAsTheCheckoutsBinBatonDoes(String command) throws Exception {
        useJavaThatPrintsItsArguments();
        machine.install(Scope.USER);
        write(ClassDataArchive.of(machine.layout().installedJar()), "archive");

        ProcessBuilder checkout = new ProcessBuilder(Path.of("..", "bin", "baton").toAbsolutePath().toString(), command);
        checkout.environment().put("JAVA_HOME", machine.env.get("JAVA_HOME"));
        checkout.environment().put("BATON_JAR", machine.layout().installedJar().toString());
        checkout.environment().remove("BATON_JAVA_OPTS");
        ProcessBuilder installed = new ProcessBuilder(machine.layout().launcher().toString(), command);
        installed.environment().remove("BATON_JAVA_OPTS");

        assertThat(argumentsOf(installed)).isEqualTo(argumentsOf(checkout))
                .contains("@" + JvmOptions.of(machine.layout().installedJar()), "-jar", command);
    }

    private static List<String> argumentsOf(ProcessBuilder launcher) throws Exception {
        Process process = launcher.redirectErrorStream(true).start();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return new String(process.getInputStream().readAllBytes()).lines().toList();
    }

    /** JAVA_HOME becomes a stand-in whose java prints its arguments, one per line. */
    private void useJavaThatPrintsItsArguments() throws Exception {
        Path fakeJavaHome = machine.root.resolve("jdk");
        write(fakeJavaHome.resolve("bin/java"), "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\"\n");
        Files.setPosixFilePermissions(fakeJavaHome.resolve("bin/java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        machine.env.put("JAVA_HOME", fakeJavaHome.toString());
    }

    @Test
    void runningFromAClassesDirectoryPointsTheLauncherAtTheClassPathAndSaysSo() throws Exception {
        Path classes = Files.createDirectories(machine.root.resolve("build/classes"));
        StringWriter out = new StringWriter();
        Installer installer = new Installer(machine.layout(), TestMachine.SCRIPT,
                new ProgramSource(classes, classes + ":/repo/lib/picocli.jar"), new PrintWriter(out), new PrintWriter(new StringWriter()));

        installer.install(machine.target(Scope.USER), false, false);

        assertThat(machine.layout().installedJar()).doesNotExist();
        assertThat(read(machine.layout().launcher()))
                .contains("opts+=(\"@\"\"" + JvmOptions.of(machine.layout().installedJar()) + "\")")
                .contains("-cp \"" + classes + ":/repo/lib/picocli.jar\" dev.baton.cli.BatonCommand \"$@\"");
        assertThat(out.toString()).contains("not running from a jar; the launcher runs the classes in " + classes);
    }

    @Test
    void aMissingBinDirectoryOnPathIsANoteNotAFailure() throws Exception {
        machine.env.put("PATH", "/usr/bin:/bin");

        int exit = machine.install(Scope.USER);

        assertThat(exit).isZero();
        assertThat(machine.err()).contains("note: " + machine.home.resolve(".local/bin") + " is not on PATH")
                .contains("The hooks do not need it");
        assertThat(machine.layout().hookLauncher()).isExecutable();
    }

    @Test
    void anUnrelatedProgramNamedBatonIsNeitherOverwrittenNorPurged() throws Exception {
        Path other = write(machine.layout().launcher(), "#!/bin/sh\necho 'the other baton'\n");

        machine.install(Scope.USER);
        machine.uninstaller().uninstall(machine.target(Scope.USER), true, false);

        assertThat(read(other)).isEqualTo("#!/bin/sh\necho 'the other baton'\n");
    }

    @Test
    void uninstallKeepsTheProgramFilesUnlessPurged() throws Exception {
        machine.install(Scope.USER);
        write(ClassDataArchive.of(machine.layout().installedJar()), "archive");

        machine.uninstall(Scope.USER);
        assertThat(machine.layout().launcher()).exists();
        assertThat(machine.layout().hookScript()).exists();

        machine.uninstaller().uninstall(machine.target(Scope.USER), true, false);
        assertThat(machine.layout().launcher()).doesNotExist();
        assertThat(machine.layout().hookScript()).doesNotExist();
        assertThat(machine.layout().installedJar()).doesNotExist();
        assertThat(ClassDataArchive.of(machine.layout().installedJar())).doesNotExist();
        assertThat(JvmOptions.of(machine.layout().installedJar())).doesNotExist();
        assertThat(Files.exists(machine.layout().hookLink(), java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
    }

    @Test
    void aReleasesRuntimeIsCopiedIntoPlaceAndTheLauncherRunsItsJavaWhateverJavaTheMachineHas() throws Exception {
        Path runtime = standInRuntime(machine.root.resolve("download/baton-0.1.0/runtime"));
        machine.env.put("JAVA_HOME", "/opt/jdk-11");

        installFromRelease(runtime);

        Path installed = machine.layout().installedRuntime();
        assertThat(Files.readAllBytes(installed.resolve("lib/modules"))).isEqualTo(Files.readAllBytes(runtime.resolve("lib/modules")));
        assertThat(installed.resolve("bin/java")).isExecutable();
        assertThat(read(machine.layout().launcher()))
                .contains("exec \"" + installed.resolve("bin/java") + "\" \"${opts[@]}\" ${BATON_JAVA_OPTS} -jar ");
        assertThat(read(machine.layout().hookLauncher())).isEqualTo(read(machine.layout().launcher()));
        // The download may go: what the launcher runs is the copy.
        deleteTree(runtime.getParent());
        assertThat(argumentsOf(new ProcessBuilder(machine.layout().launcher().toString(), "status")))
                .containsExactly("stand-in runtime", "@" + JvmOptions.of(machine.layout().installedJar()),
                        "-XX:TieredStopAtLevel=1", "-jar", machine.layout().installedJar().toString(), "status");
    }

    @Test
    void installingTheSameReleaseAgainLeavesItsRuntimeAsItIs() throws Exception {
        Path runtime = standInRuntime(machine.root.resolve("download/baton-0.1.0/runtime"));
        installFromRelease(runtime);
        java.nio.file.attribute.FileTime copied = Files.getLastModifiedTime(machine.layout().installedRuntime().resolve("lib"));

        String second = installFromRelease(runtime);

        assertThat(second).containsPattern("unchanged +" + java.util.regex.Pattern.quote(
                machine.layout().installedRuntime().toString()) + "  \\(Java runtime\\)");
        assertThat(Files.getLastModifiedTime(machine.layout().installedRuntime().resolve("lib"))).isEqualTo(copied);
    }

    @Test
    void purgeDeletesTheRuntimeAndLeavesNoDirectoryOfBatonsProgramBehind() throws Exception {
        installFromRelease(standInRuntime(machine.root.resolve("download/baton-0.1.0/runtime")));

        machine.uninstaller().uninstall(machine.target(Scope.USER), true, false);

        assertThat(machine.layout().installedRuntime()).doesNotExist();
        assertThat(machine.layout().dataDir()).doesNotExist();
        assertThat(machine.out()).contains("deleted").contains(machine.layout().installedRuntime() + "  (Java runtime)");
    }

    @Test
    void theReleaseRuntimeIsTheOneBesideTheJarsDirectoryAndOnlyWhenItIsTheOneRunning() throws Exception {
        Path runtime = standInRuntime(machine.root.resolve("download/baton-0.1.0/runtime"));
        Path jar = write(machine.root.resolve("download/baton-0.1.0/lib/baton.jar"), "jar");

        assertThat(ProgramSource.releaseRuntime(jar, runtime)).contains(runtime);
        assertThat(ProgramSource.releaseRuntime(jar, Path.of(System.getProperty("java.home")))).isEmpty();
        assertThat(ProgramSource.releaseRuntime(machine.jar, runtime)).isEmpty();
    }

    /** A runtime whose java says it is the stand-in, then prints its arguments, one per line. */
    private static Path standInRuntime(Path dir) throws Exception {
        write(dir.resolve("bin/java"), "#!/usr/bin/env bash\necho 'stand-in runtime'\nprintf '%s\\n' \"$@\"\n");
        Files.setPosixFilePermissions(dir.resolve("bin/java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        write(dir.resolve("lib/modules"), "the modules");
        write(dir.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        return dir;
    }

    /** Installs for Claude Code as `baton install` run from a release does; returns what it printed. */
    private String installFromRelease(Path runtime) throws Exception {
        StringWriter out = new StringWriter();
        new Installer(machine.layout(), TestMachine.SCRIPT, new ProgramSource(machine.jar, machine.jar.toString(),
                java.util.Optional.of(runtime)), new PrintWriter(out), new PrintWriter(new StringWriter()))
                .install(machine.target(Scope.USER, Agents.CLAUDE), false, false);
        return out.toString();
    }

    private static void deleteTree(Path root) throws Exception {
        try (var walk = Files.walk(root)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Test
    void aHomeWithSpacesIsQuotedInTheHookCommands() throws Exception {
        machine.env.put("XDG_DATA_HOME", machine.root.resolve("My Data").toString());

        machine.install(Scope.USER, Agents.CLAUDE);

        assertThat(read(machine.userSettings()))
                .contains("\"command\": \"'" + machine.root.resolve("My Data/baton/hooks/baton-hook") + "' claude Stop\"");
    }
}
