package dev.baton.installer.doctor;

import dev.baton.process.BoundedRun;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One run of an installed command as an agent runs it, for the doctor's probes: exactly the given environment, the
 * given bytes on standard input (then closed), bounded in time. {@code timedOut} when it was still running at the
 * limit (then killed).
 */
public record ProbeRun(int exit, String out, String err, boolean timedOut) {

    /** How long a probe waits for the command: far more than a hook or a start of the sidecar takes. */
    public static final Duration LIMIT = Duration.ofSeconds(60);

    /** @param directory the working directory, or null for this process's own */
    public static ProbeRun run(List<String> command, Map<String, String> environment, Path directory, byte[] input)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().clear();
        builder.environment().putAll(environment);
        BoundedRun run = BoundedRun.run(builder, input, LIMIT);
        return new ProbeRun(run.exit(), run.outText(), run.errText(), run.timedOut());
    }

    /** The first line of a command's output, cut at 300 characters, for a one-line report. */
    public static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("(no output)");
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }
}
