package dev.baton.git;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The files of a working tree that differ from HEAD: staged or unstaged changes, deletions, renames and
 * untracked files. Runs {@code git status --porcelain -z} with a bounded wait, so a slow repository can
 * delay a turn's end but never hang it.
 */
public final class GitStatus {

    private static final List<String> INHERITED_GIT_VARIABLES = List.of(
            "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE");

    private final Duration timeout;

    public GitStatus(Duration timeout) {
        this.timeout = timeout;
    }

    /** Absolute paths (under {@code repoRoot}) of every changed or untracked file; ignored files are not listed. */
    public Set<Path> changedFiles(Path repoRoot) throws GitException {
        ProcessBuilder builder = new ProcessBuilder("git", "-C", repoRoot.toString(), "status", "--porcelain", "-z",
                "--untracked-files=all", "--no-renames")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        Map<String, String> env = builder.environment();
        // The sidecar may have been started from inside a git hook; those variables would point git elsewhere.
        INHERITED_GIT_VARIABLES.forEach(env::remove);
        // A status run for Baton must never take index.lock away from the user's own git commands.
        env.put("GIT_OPTIONAL_LOCKS", "0");
        env.put("LC_ALL", "C");
        Process git;
        try {
            git = builder.start();
        } catch (IOException e) {
            throw new GitException("cannot run git in " + repoRoot + ": " + e.getMessage());
        }
        try {
            git.getOutputStream().close();
            OutputReader output = new OutputReader(git.getInputStream());
            output.start();
            if (!git.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                git.destroyForcibly();
                throw new GitException("git status in " + repoRoot + " took longer than " + timeout.toMillis() + " ms");
            }
            output.join(timeout.toMillis());
            if (output.isAlive() || output.failure != null) {
                throw new GitException("could not read git status output in " + repoRoot);
            }
            if (git.exitValue() != 0) {
                throw new GitException("git status in " + repoRoot + " failed with exit code " + git.exitValue()
                        + "; run `git status` there to see why");
            }
            return parse(repoRoot, output.bytes());
        } catch (InterruptedException e) {
            git.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new GitException("interrupted while running git status in " + repoRoot);
        } catch (IOException e) {
            git.destroyForcibly();
            throw new GitException("cannot talk to git in " + repoRoot + ": " + e.getMessage());
        }
    }

    /** Porcelain v1 with -z: entries {@code XY PATH\0}; with --no-renames there is never a second path. */
    static Set<Path> parse(Path repoRoot, byte[] porcelain) {
        Set<Path> changed = new HashSet<>();
        String text = new String(porcelain, StandardCharsets.UTF_8);
        for (String entry : text.split("\0")) {
            if (entry.length() > 3) {
                changed.add(repoRoot.resolve(entry.substring(3)).normalize());
            }
        }
        return changed;
    }

    /** Drains git's output while it runs, so a large status cannot fill the pipe and stall git. */
    private static final class OutputReader extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private volatile IOException failure;

        OutputReader(InputStream in) {
            super("baton-git-status");
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

        byte[] bytes() {
            return buffer.toByteArray();
        }
    }
}
