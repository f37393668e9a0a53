package dev.baton.installer.program;

import dev.baton.installer.config.FileStep;
import dev.baton.process.BoundedRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;

/**
 * The class-data archive beside the installed jar: the sidecar starts in about half the time with its
 * start-up classes mapped from it. An archive fits only the jar path and the JVM it was made with, so
 * it is made here, for the installed copy, by the same {@code java} the launcher runs: that JVM runs the
 * sidecar's start-up training once with {@code -XX:ArchiveClassesAtExit}. Without it Baton still works.
 */
public final class ClassDataArchive {

    /** The program class that starts a sidecar, serves a few requests and stops (in the sidecar module). */
    public static final String TRAINING_CLASS = "dev.baton.server.StartupTraining";
    private static final Duration LIMIT = Duration.ofSeconds(120);

    private ClassDataArchive() {
    }

    /**
     * For the build, so the options file and the archive of {@code target/baton.jar} are made the same way as an
     * installed one's: {@code ClassDataArchive JAR JAVA}. Silent when it succeeds, as a build step under
     * {@code mvn -q} must be; when no archive could be made it says why on standard error and exits 1.
     */
    public static void main(String[] args) throws IOException {
        JvmOptions.write(Path.of(args[0]), false);
        FileStep step = make(Path.of(args[0]), args[1], false);
        if (step.verb().equals("skipped")) {
            System.err.println(step);
            System.exit(1);
        }
    }

    /** The archive of {@code jar}: its name with {@code .jsa} for {@code .jar}, where the launchers look for it. */
    public static Path of(Path jar) {
        String name = jar.getFileName().toString();
        return jar.resolveSibling(name.replaceFirst("\\.jar$", "") + ".jsa");
    }

    /** Makes the archive unless it is there and newer than the jar. */
    public static FileStep make(Path jar, String javaCommand, boolean dryRun) {
        Path archive = of(jar);
        try {
            if (Files.exists(archive) && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                return new FileStep("unchanged", archive, "class-data archive");
            }
            if (!hasTraining(jar)) {
                return new FileStep("skipped", archive, "the jar has no " + TRAINING_CLASS + "; the sidecar starts without an archive");
            }
            String verb = Files.exists(archive) ? "updated" : "created";
            if (dryRun) {
                return new FileStep("would be " + verb, archive, "class-data archive, made by " + javaCommand);
            }
            Path temp = archive.resolveSibling("." + archive.getFileName() + ".tmp");
            Files.deleteIfExists(temp);
            // The training runs with the launchers' options, so it loads the classes the sidecar will.
            List<String> command = new ArrayList<>(List.of(javaCommand));
            if (Files.isRegularFile(JvmOptions.of(jar))) {
                command.add("@" + JvmOptions.of(jar));
            }
            command.addAll(List.of("-XX:ArchiveClassesAtExit=" + temp, "-Xlog:cds*=off", "-Xlog:class+path=off",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=off", "-cp", jar.toString(), TRAINING_CLASS));
            BoundedRun training = BoundedRun.run(new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD), new byte[0], LIMIT);
            if (training.timedOut()) {
                Files.deleteIfExists(temp);
                return new FileStep("skipped", archive, "making the class-data archive took over " + LIMIT.toSeconds() + " s");
            }
            if (training.exit() != 0 || !Files.exists(temp)) {
                Files.deleteIfExists(temp);
                return new FileStep("skipped", archive, javaCommand + " could not make a class-data archive (exit "
                        + training.exit() + "); the sidecar starts without one");
            }
            Files.move(temp, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new FileStep(verb, archive, "class-data archive, made by " + javaCommand);
        } catch (IOException e) {
            return new FileStep("skipped", archive, "no class-data archive: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new FileStep("skipped", archive, "interrupted while making the class-data archive");
        }
    }

    private static boolean hasTraining(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.getEntry(TRAINING_CLASS.replace('.', '/') + ".class") != null;
        } catch (IOException notAJar) {
            return false;
        }
    }
}
