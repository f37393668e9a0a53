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

    public ProcessBuilder builder(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), "dev.baton.cli.BatonCommand"));
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
