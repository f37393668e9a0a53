package dev.baton.installer.program;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;

/**
 * Where the running Baton program comes from: a jar worth copying into place, or a build's classes directory that
 * the launcher has to run in place; and, for a release archive, the Java runtime it brings, copied into place too.
 *
 * @param location  the jar file or classes directory
 * @param classPath the class path to launch with when {@code location} is not a jar
 * @param runtime   the release's own runtime ({@code baton-VERSION/runtime} beside {@code lib/}), when the program
 *                  runs on it; empty for a build run on a JDK of the machine
 */
public record ProgramSource(Path location, String classPath, Optional<Path> runtime) {

    /** The command-line entry point of the packaged program (the sidecar module's main class). */
    public static final String MAIN_CLASS = "dev.baton.cli.BatonCommand";

    /** A program that runs on a Java of the machine's. */
    public ProgramSource(Path location, String classPath) {
        this(location, classPath, Optional.empty());
    }

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
        return new ProgramSource(location, System.getProperty("java.class.path", location.toString()),
                releaseRuntime(location, Path.of(System.getProperty("java.home"))));
    }

    /** The runtime of a release, {@code runtime/} beside the jar's {@code lib/}, when it is the one running. */
    public static Optional<Path> releaseRuntime(Path jar, Path javaHome) {
        Path lib = jar.toAbsolutePath().getParent();
        if (lib == null || lib.getParent() == null) {
            return Optional.empty();
        }
        Path runtime = lib.resolveSibling("runtime");
        try {
            return Files.isSameFile(runtime, javaHome) ? Optional.of(runtime) : Optional.empty();
        } catch (IOException noSuchRuntime) {
            return Optional.empty();
        }
    }

    public boolean isJar() {
        return Files.isRegularFile(location) && location.getFileName().toString().endsWith(".jar");
    }
}
