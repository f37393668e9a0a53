package dev.baton.git;

import dev.baton.process.BoundedRun;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
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
        BoundedRun git;
        try {
            git = BoundedRun.run(builder, input, timeout);
        } catch (IOException e) {
            throw new GitException("cannot run " + shown + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GitException("interrupted while running " + shown);
        }
        if (git.timedOut()) {
            throw new GitException(shown + " took longer than " + timeout.toMillis() + " ms");
        }
        if (git.exit() < 0 || git.exit() > lastSuccessfulExit) {
            throw new GitException(shown + " failed with exit code " + git.exit());
        }
        return git.out();
    }
}
