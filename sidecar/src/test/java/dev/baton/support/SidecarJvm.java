package dev.baton.support;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.Deflater;

/**
 * The class path of a sidecar the tests run in a JVM of its own, with a class-data archive of a sidecar's start-up
 * classes, as {@code baton install} makes one for the installed jar: such a sidecar starts in about two thirds of
 * the time. An archive maps classes from jars only, so the build's class directories are packed as jars first; both
 * are made once per test JVM. Where no archive can be made the sidecar runs from the plain test class path.
 */
final class SidecarJvm {

    private static final String TRAINING_CLASS = "dev.baton.server.StartupTraining";
    private static final Duration TRAINING_LIMIT = Duration.ofSeconds(120);

    private static List<String> options;

    private SidecarJvm() {
    }

    /** The options that give a {@code java} command this build's classes: {@code -cp} and the archive's. */
    static synchronized List<String> classPathOptions() {
        if (options == null) {
            options = prepare(System.getProperty("java.class.path"));
        }
        return options;
    }

    private static List<String> prepare(String classPath) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory(Files.createDirectories(Path.of("target").toAbsolutePath()), "sidecar-jvm-");
            Path made = dir;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(made)));
            List<String> entries = new ArrayList<>();
            for (String entry : classPath.split(java.io.File.pathSeparator)) {
                Path path = Path.of(entry);
                if (Files.isDirectory(path)) {
                    Path jar = dir.resolve(entries.size() + "-" + path.getFileName() + ".jar");
                    pack(path, jar);
                    entries.add(jar.toString());
                } else {
                    entries.add(entry);
                }
            }
            String jars = String.join(java.io.File.pathSeparator, entries);
            Path archive = dir.resolve("sidecar.jsa");
            Process training = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:ArchiveClassesAtExit=" + archive,
                    "-Xlog:cds*=off", "-Xlog:class+path=off", "-Dorg.slf4j.simpleLogger.defaultLogLevel=off",
                    "-cp", jars, TRAINING_CLASS)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("training.log").toFile()).start();
            training.getOutputStream().close();
            if (!training.waitFor(TRAINING_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                training.destroyForcibly();
                return without(classPath, "the start-up training took over " + TRAINING_LIMIT.toSeconds() + " s");
            }
            if (training.exitValue() != 0 || !Files.isRegularFile(archive)) {
                return without(classPath, "the start-up training exited with " + training.exitValue() + ", see "
                        + dir.resolve("training.log"));
            }
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off", "-Xlog:class+path=off", "-cp", jars);
        } catch (IOException e) {
            return without(classPath, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return without(classPath, "interrupted");
        }
    }

    private static List<String> without(String classPath, String why) {
        System.out.println("test sidecars start without a class-data archive: " + why);
        return List.of("-cp", classPath);
    }

    /** A jar of the directory's files, stored (not compressed: packing and reading them stays cheap). */
    private static void pack(Path directory, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file);
             Stream<Path> walk = Files.walk(directory)) {
            out.setLevel(Deflater.NO_COMPRESSION);
            for (Path path : walk.sorted().toList()) {
                if (path.equals(directory)) {
                    continue;
                }
                String name = directory.relativize(path).toString().replace(java.io.File.separatorChar, '/');
                if (Files.isDirectory(path)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a leftover under target/ is removed with the build's other output
        }
    }
}
