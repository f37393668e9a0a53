package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged sidecar as users start it: {@code bin/baton serve} with the jar and class-data archive
 * the build made, and the launcher {@code baton install} writes. Runs after {@code package} (Failsafe),
 * when the jar and the archive exist.
 */
class LauncherIT {

    private static final Path LAUNCHER = Path.of("..", "bin", "baton").toAbsolutePath().normalize();
    private static final Path ARCHIVE = Path.of("target", "baton.jsa").toAbsolutePath();

    @TempDir
    Path home;

    @Test
    void theBuildMadeAClassDataArchive() {
        assertThat(ARCHIVE).isRegularFile();
        assertThat(ARCHIVE.toFile().length()).isGreaterThan(1 << 20);
    }

    @Test
    void theBuildStepThatMakesTheArchiveSaysNothingWhenItSucceeds() throws Exception {
        // The build runs this step in `package`; under `mvn -q` anything it prints reaches the console.
        Path jar = Files.copy(Path.of("target", "baton.jar"), Files.createDirectories(home.resolve("lib")).resolve("baton.jar"));
        Path output = home.resolve("step.log");
        Process step = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", jar.toString(), "dev.baton.installer.program.ClassDataArchive", jar.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();

        assertThat(step.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(step.exitValue()).as(Files.readString(output)).isZero();
        assertThat(Files.readString(output)).isEmpty();
        assertThat(home.resolve("lib/baton.jsa")).isRegularFile();
        assertThat(home.resolve("lib/baton.jvmopts")).isRegularFile();
    }

    @Test
    void aQuietMavenRunInThisCheckoutPrintsNotEvenTerminalCodes() throws Exception {
        // Maven 3.8's console library writes a colour reset to both streams at exit, even in batch mode; the
        // checkout's .mvn/jvm.config turns it off. The Maven running this build is the one a developer has.
        Path maven = Path.of(System.getProperty("maven.home", ""), "bin", "mvn");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(maven), "no Maven home given to the tests");
        Path output = home.resolve("mvn.log");
        ProcessBuilder builder = new ProcessBuilder(maven.toString(), "-B", "-q", "-o", "-N", "validate")
                .directory(Path.of("..").toAbsolutePath().normalize().toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().remove("MAVEN_OPTS");
        Process mvn = builder.start();

        assertThat(mvn.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(mvn.exitValue()).as(Files.readString(output)).isZero();
        assertThat(Files.readString(output)).isEmpty();
    }

    @Test
    void theSidecarStartsWithItsClassesMappedFromTheArchive() throws Exception {
        Path classLog = home.resolve("classes.log");
        Process sidecar = serve("-Xlog:class+load=info:file=" + classLog);
        try {
            int port = awaitPort(sidecar);
            HttpResponse<String> health = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
        } finally {
            stop(sidecar);
        }
        List<String> loads = Files.readAllLines(classLog);
        assertThat(loads).filteredOn(line -> line.contains(" dev.baton.server.Sidecar "))
                .singleElement().asString().contains("source: shared objects file (top)");
        assertThat(loads).filteredOn(line -> line.contains(" org.eclipse.jetty.server.Server "))
                .singleElement().asString().contains("source: shared objects file (top)");
        // `baton serve` with plain arguments reads them without building the command tree: no other verb is loaded.
        assertThat(loads).filteredOn(line -> line.contains(" dev.baton.cli.ServeCommand ") || line.contains(" dev.baton.store.SqliteLibrary "))
                .hasSize(2).allMatch(line -> line.contains("source: shared objects file (top)"));
        assertThat(loads).noneMatch(line -> line.contains(" dev.baton.cli.LockCommands$Acquire "));
    }

    @Test
    void anInstalledSidecarStartsWithTheArchiveTheInstallerMadeForItsCopyOfTheJar() throws Exception {
        Path user = install();
        Path archive = user.resolve(".local/share/baton/lib/baton.jsa");
        assertThat(Files.readString(home.resolve("install.log"))).contains("created").contains(archive.toString());
        assertThat(archive).isRegularFile();

        Path classLog = home.resolve("classes.log");
        Process sidecar = serve(user.resolve(".local/bin/baton"), "-Xlog:class+load=info:file=" + classLog, Map.of());
        try {
            awaitPort(sidecar);
        } finally {
            stop(sidecar);
        }
        assertThat(Files.readAllLines(classLog)).filteredOn(line -> line.contains(" dev.baton.server.Sidecar "))
                .singleElement().asString().contains("source: shared objects file (top)");
    }

    /** Runs {@code bin/baton install} for a user whose home is in the temporary directory; returns that home. */
    private Path install() throws Exception {
        Path user = Files.createDirectories(home.resolve("user"));
        ProcessBuilder install = new ProcessBuilder(LAUNCHER.toString(), "install", "--claude", "--no-mcp")
                .redirectErrorStream(true).redirectOutput(home.resolve("install.log").toFile());
        install.environment().put("HOME", user.toString());
        List.of("XDG_DATA_HOME", "XDG_STATE_HOME", "BATON_HOME", "CLAUDE_CONFIG_DIR", "COPILOT_HOME", "JAVA_HOME")
                .forEach(install.environment()::remove);
        Process installing = install.start();
        assertThat(installing.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(installing.exitValue()).as(Files.readString(home.resolve("install.log"))).isZero();
        return user;
    }

    @Test
    void bothLaunchersRunTheJvmWithTheOneOptionsFileTheBuildShips() throws Exception {
        Path user = install();
        Path options = Path.of("target", "baton.jvmopts").toAbsolutePath();
        Matcher heap = Pattern.compile("(?m)^-Xms(\\d+)m$").matcher(Files.readString(options));
        assertThat(heap.find()).as("%s sets the initial heap", options).isTrue();

        List<String> checkout = jvmFlags(LAUNCHER);
        List<String> installed = jvmFlags(user.resolve(".local/bin/baton"));

        assertThat(checkout).contains("-XX:InitialHeapSize=" + Long.parseLong(heap.group(1)) * 1024 * 1024, "-XX:+UseSerialGC");
        assertThat(installed).isEqualTo(checkout);
    }

    /** The flags the JVM a launcher starts runs with (as it prints them), less the archive's path, which is the jar's. */
    private List<String> jvmFlags(Path launcher) throws Exception {
        Path out = home.resolve("flags.log");
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--version").redirectErrorStream(true)
                .redirectOutput(out.toFile());
        builder.environment().put("BATON_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
        builder.environment().remove("JAVA_HOME");
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(out)).isZero();
        String line = Files.readAllLines(out).stream().filter(text -> text.startsWith("-XX:")).findFirst().orElseThrow();
        return Arrays.stream(line.trim().split(" ")).filter(flag -> !flag.startsWith("-XX:SharedArchiveFile=")).toList();
    }

    @Test
    void anArchiveThatDoesNotFitItsJarIsSkippedQuietly() throws Exception {
        // A jar moved or rebuilt after its archive was made: the JVM refuses the archive, and would say so.
        Path moved = Files.createDirectories(home.resolve("moved"));
        Files.copy(Path.of("target", "baton.jar"), moved.resolve("baton.jar"));
        Files.copy(ARCHIVE, moved.resolve("baton.jsa"));
        Process sidecar = serve("-Dunused=1", Map.of("BATON_JAR", moved.resolve("baton.jar").toString()));
        Path out = home.resolve("out.log");
        try {
            awaitPort(sidecar);
            assertThat(Files.readString(out)).contains("serving on"); // logged before the endpoint is written
        } finally {
            stop(sidecar);
        }
        assertThat(Files.readString(out)).doesNotContain("[warning]");
    }

    private Process serve(String javaOptions) throws IOException {
        return serve(LAUNCHER, javaOptions, Map.of());
    }

    private Process serve(String javaOptions, Map<String, String> environment) throws IOException {
        return serve(LAUNCHER, javaOptions, environment);
    }

    private Process serve(Path launcher, String javaOptions, Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "serve", "--port", "0")
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("out.log").toFile());
        builder.environment().put("BATON_HOME", home.resolve("baton").toString());
        builder.environment().put("BATON_JAVA_OPTS", javaOptions);
        builder.environment().putAll(environment);
        return builder.start();
    }

    private int awaitPort(Process sidecar) {
        Path endpoint = home.resolve("baton").resolve("endpoint");
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> !sidecar.isAlive() || (Files.exists(endpoint) && !Files.readString(endpoint).isBlank()));
        assertThat(sidecar.isAlive()).as("the sidecar is running; its output: %s", home.resolve("out.log")).isTrue();
        try {
            String text = Files.readString(endpoint).trim();
            return Integer.parseInt(text.substring(text.indexOf(':') + 1));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void stop(Process sidecar) throws InterruptedException {
        sidecar.destroy();
        if (!sidecar.waitFor(30, TimeUnit.SECONDS)) {
            sidecar.destroyForcibly();
        }
    }
}
