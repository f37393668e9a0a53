package dev.baton.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code baton} command as a separate JVM, the way a user's shell runs it. */
public final class BatonCli {

    private final Path home;
    private final Path workDir;

    public BatonCli(Path home, Path workDir) {
        this.home = home;
        this.workDir = workDir;
    }

    /**
     * {@code baton ARGS} as a process to start. {@code baton serve} runs from the class path of {@link SidecarJvm},
     * with its class-data archive, so a test that starts many sidecars waits less for each; the other commands keep
     * the plain class path, where {@code baton install} finds this build's class directories to run in place.
     */
    public ProcessBuilder builder(String... args) {
        boolean serve = args.length > 0 && args[0].equals("serve");
        return builder(serve ? SidecarJvm.classPathOptions() : List.of("-cp", System.getProperty("java.class.path")), args);
    }

    private ProcessBuilder builder(List<String> classPath, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(classPath);
        command.add("dev.baton.cli.BatonCommand");
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        builder.environment().put("BATON_HOME", home.toString());
        return builder;
    }

    public Result run(String... args) {
        return run(builder(args), args);
    }

    /** Runs with these environment variables set (a null value removes the variable). */
    public Result run(java.util.Map<String, String> env, String... args) {
        ProcessBuilder builder = builder(args);
        env.forEach((name, value) -> {
            if (value == null) {
                builder.environment().remove(name);
            } else {
                builder.environment().put(name, value);
            }
        });
        return run(builder, args);
    }

    private Result run(ProcessBuilder builder, String... args) {
        try {
            Path out = Files.createTempFile("baton-out", ".txt");
            Path err = Files.createTempFile("baton-err", ".txt");
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("baton " + String.join(" ", args) + " did not finish in 60 s");
            }
            Result result = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Exit code and what the command printed. */
    public record Result(int exit, String out, String err) {
    }
}
