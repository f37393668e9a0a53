package dev.baton.git;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one read-only git command in a working tree with a bounded wait, never taking {@code index.lock} away from
 * the user's own git commands, and returns its standard output.
 */
final class GitProcess {

    private static final List<String> INHERITED_GIT_VARIABLES = List.of(
            "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE");

    private GitProcess() {
    }

    static byte[] run(Path root, Duration timeout, String... args) throws GitException {
        return run(root, timeout, new byte[0], 0, args);
    }

    /**
     * Runs git with {@code input} on its standard input; an exit code up to {@code lastSuccessfulExit} counts as an
     * answer (some commands say "nothing found" with 1).
     */
    static byte[] run(Path root, Duration timeout, byte[] input, int lastSuccessfulExit, String... args) throws GitException {
        // A repository's own settings must not make Baton's git run a program of theirs (fsmonitor, hooks).
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString(), "-c", "core.fsmonitor=false",
                "-c", "core.hooksPath=/dev/null"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        Map<String, String> env = builder.environment();
        // The sidecar may have been started from inside a git hook; those variables would point git elsewhere.
        INHERITED_GIT_VARIABLES.forEach(env::remove);
        env.put("GIT_OPTIONAL_LOCKS", "0");
        // Paths Baton passes after "--" are files, never patterns: a held file named a*b.txt must not match others.
        // (Only there: some commands, check-ignore among them, refuse the setting.)
        if (List.of(args).contains("--")) {
            env.put("GIT_LITERAL_PATHSPECS", "1");
        }
        env.put("LC_ALL", "C");
        String shown = "git " + args[0] + " in " + root;
        Process git;
        try {
            git = builder.start();
        } catch (IOException e) {
            throw new GitException("cannot run " + shown + ": " + e.getMessage());
        }
        try {
            Drain output = new Drain(git.getInputStream());
            output.start();
            try (var stdin = git.getOutputStream()) {
                stdin.write(input);
            }
            if (!git.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                git.destroyForcibly();
                throw new GitException(shown + " took longer than " + timeout.toMillis() + " ms");
            }
            output.join(timeout.toMillis());
            if (output.isAlive() || output.failure != null) {
                throw new GitException("could not read the output of " + shown);
            }
            if (git.exitValue() < 0 || git.exitValue() > lastSuccessfulExit) {
                throw new GitException(shown + " failed with exit code " + git.exitValue());
            }
            return output.buffer.toByteArray();
        } catch (InterruptedException e) {
            git.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new GitException("interrupted while running " + shown);
        } catch (IOException e) {
            git.destroyForcibly();
            throw new GitException("cannot talk to " + shown + ": " + e.getMessage());
        }
    }

    /** Reads git's output while it runs, so a large answer cannot fill the pipe and stall git. */
    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private volatile IOException failure;

        Drain(InputStream in) {
            super("baton-git");
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            try (in) {
                in.transferTo(buffer);
            } catch (IOException e) {
                failure = e;
            }
        }
    }
}
