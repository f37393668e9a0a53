package dev.baton.installer.program;

import dev.baton.installer.config.FileStep;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;

/**
 * The JVM options of every {@code baton} command, one file beside the jar ({@code baton.jvmopts} for
 * {@code baton.jar}) that both launchers hand to java as an argument file ({@code java @FILE}, read by the java
 * launcher itself: no process and no parsing in bash). Its text is this package's resource; the build writes it
 * beside {@code target/baton.jar} and {@code baton install} beside the installed copy, so the two launchers run
 * the same options.
 */
public final class JvmOptions {

    private static final String RESOURCE = "baton.jvmopts";

    private JvmOptions() {
    }

    /** The options file of {@code jar}: its name with {@code .jvmopts} for {@code .jar}, where the launchers look. */
    public static Path of(Path jar) {
        String name = jar.getFileName().toString();
        return jar.resolveSibling(name.replaceFirst("\\.jar$", "") + ".jvmopts");
    }

    /** The options, as shipped. */
    public static byte[] text() {
        try (InputStream in = JvmOptions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the program has no " + RESOURCE + "; rebuild it");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the options beside {@code jar} unless they are there already. */
    public static FileStep write(Path jar, boolean dryRun) throws IOException {
        Path file = of(jar);
        byte[] text = text();
        boolean exists = Files.isRegularFile(file);
        if (exists && Arrays.equals(Files.readAllBytes(file), text)) {
            return new FileStep("unchanged", file, "JVM options");
        }
        String verb = exists ? "updated" : "created";
        if (dryRun) {
            return new FileStep("would be " + verb, file, "JVM options");
        }
        Files.createDirectories(file.getParent());
        Path temp = Files.createTempFile(file.getParent(), "." + file.getFileName() + ".", ".tmp");
        Files.write(temp, text);
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return new FileStep(verb, file, "JVM options");
    }
}
