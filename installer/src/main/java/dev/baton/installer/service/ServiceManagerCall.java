package dev.baton.installer.service;

import dev.baton.process.BoundedRun;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** One run of the user's service manager command ({@code systemctl --user …}, {@code launchctl …}): exit code and output. */
public record ServiceManagerCall(int exit, String output) {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    public boolean succeeded() {
        return exit == 0;
    }

    /** The first line of its output, or a sentence when it printed nothing. */
    public String firstLine() {
        String text = output.strip();
        int newline = text.indexOf('\n');
        return text.isEmpty() ? "(no output, exit " + exit + ")" : newline < 0 ? text : text.substring(0, newline);
    }

    /** Runs {@code command}; a command that cannot be run or does not end within a minute comes back as a failure. */
    public static ServiceManagerCall run(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        try {
            BoundedRun run = BoundedRun.run(builder, new byte[0], LIMIT);
            if (run.timedOut()) {
                return new ServiceManagerCall(-1, String.join(" ", command) + " did not finish within " + LIMIT.toSeconds() + " s");
            }
            return new ServiceManagerCall(run.exit(), run.outText());
        } catch (IOException e) {
            return new ServiceManagerCall(-1, "cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ServiceManagerCall(-1, "interrupted while running " + String.join(" ", command));
        }
    }
}
