package dev.baton.installer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One run of the user's service manager command ({@code systemctl --user …}, {@code launchctl …}): exit code and output. */
record ServiceManagerCall(int exit, String output) {

    private static final long TIMEOUT_SECONDS = 60;

    boolean succeeded() {
        return exit == 0;
    }

    /** The first line of its output, or a sentence when it printed nothing. */
    String firstLine() {
        String text = output.strip();
        int newline = text.indexOf('\n');
        return text.isEmpty() ? "(no output, exit " + exit + ")" : newline < 0 ? text : text.substring(0, newline);
    }

    /** Runs {@code command}; a command that cannot be run or does not end within a minute comes back as a failure. */
    static ServiceManagerCall run(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        try {
            Process process = builder.start();
            byte[] output = process.getInputStream().readAllBytes(); // ends when the command closes its output
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new ServiceManagerCall(-1, String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            return new ServiceManagerCall(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new ServiceManagerCall(-1, "cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ServiceManagerCall(-1, "interrupted while running " + String.join(" ", command));
        }
    }
}
