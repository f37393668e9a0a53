package dev.baton.installer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of an installed command as an agent runs it, for the doctor's probes: exactly the given environment, the
 * given bytes on standard input (then closed), bounded in time. {@code timedOut} when it was still running at the
 * limit (then killed).
 */
record ProbeRun(int exit, String out, String err, boolean timedOut) {

    /** How long a probe waits for the command: far more than a hook or a start of the sidecar takes. */
    static final Duration LIMIT = Duration.ofSeconds(60);

    /** @param directory the working directory, or null for this process's own */
    static ProbeRun run(List<String> command, Map<String, String> environment, Path directory, byte[] input)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().clear();
        builder.environment().putAll(environment);
        Path out = Files.createTempFile("baton-doctor", ".out");
        Path err = Files.createTempFile("baton-doctor", ".err");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(input);
            } catch (IOException closedEarly) {
                // the command may exit without reading its input; what it printed and its exit code say why
            }
            if (!process.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new ProbeRun(-1, Files.readString(out), Files.readString(err), true);
            }
            return new ProbeRun(process.exitValue(), Files.readString(out), Files.readString(err), false);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The first line of a command's output, cut at 300 characters, for a one-line report. */
    static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("(no output)");
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
