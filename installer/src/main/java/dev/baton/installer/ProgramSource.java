package dev.baton.installer;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;

/**
 * Where the running Baton program comes from: a jar worth copying into place, or a build's classes
 * directory that the launcher has to run in place.
 *
 * @param location  the jar file or classes directory
 * @param classPath the class path to launch with when {@code location} is not a jar
 */
public record ProgramSource(Path location, String classPath) {

    /** The command-line entry point of the packaged program (the sidecar module's main class). */
    static final String MAIN_CLASS = "dev.baton.cli.BatonCommand";

    public static ProgramSource ofRunningCode() {
        CodeSource source = ProgramSource.class.getProtectionDomain().getCodeSource();
        Path location = Optional.ofNullable(source)
                .map(CodeSource::getLocation)
                .map(url -> {
                    try {
                        return Path.of(url.toURI());
                    } catch (URISyntaxException | IllegalArgumentException e) {
                        return null;
                    }
                })
                .orElse(Path.of(System.getProperty("user.dir")));
        return new ProgramSource(location, System.getProperty("java.class.path", location.toString()));
    }

    public boolean isJar() {
        return Files.isRegularFile(location) && location.getFileName().toString().endsWith(".jar");
    }
}
