package dev.baton.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Marker files outside the repository through which a test drives a long-running shell command of an agent: the
 * command marks its start, waits for the test's go, and marks that it tried; the test waits for those marks, never
 * for a time. The command's waits are bounded and end early once the test gives up.
 */
public final class CommandMarkers {

    /** Seconds the command waits for the go: the other session's turn, on a loaded machine. */
    private static final int GO_WAIT = 180;
    /** Seconds it waits for the binder to make the file read-only: a wrapper that never does fails within this. */
    private static final int BIND_WAIT = 20;

    private final Path started;
    private final Path go;
    private final Path tried;
    private final Path giveUp;
    /** What the command printed, kept whether or not the agent hands it to its model. */
    public final Path output;

    public CommandMarkers(Path dir) {
        started = dir.resolve("command-started");
        go = dir.resolve("command-go");
        tried = dir.resolve("command-tried");
        giveUp = dir.resolve("command-give-up");
        output = dir.resolve("command-output");
    }

    /** Shell that waits until {@code condition} holds, at most about {@code seconds} or until the test gives up. */
    private String until(String condition, int seconds) {
        return "i=0; while ! { " + condition + "; } && [ ! -e " + giveUp + " ] && [ $i -lt " + seconds * 20 + " ];"
                + " do sleep 0.05; i=$((i+1)); done";
    }

    /**
     * The long-running command: it says whether {@code file} (relative to the repository) is writable when it starts,
     * marks its start, waits for the go, waits until the file is read-only for it (the binder follows the lock table),
     * then writes it with python, which no check before a command reads. Its output goes to {@link #output} too.
     */
    public String writeAfterGo(String file) {
        return "{ [ -w " + file + " ] && echo '" + file + " writable at start'; touch " + started + "; "
                + until("[ -e " + go + " ]", GO_WAIT) + "; " + until("[ ! -w " + file + " ]", BIND_WAIT) + "; "
                + "python3 -c \"open('" + file + "', 'w').write('overwritten by the long-running command')\""
                + " && echo 'the write went through' || echo 'the write was refused'; } 2>&1 | tee " + output
                + "; touch " + tried;
    }

    public void awaitStarted() {
        await("the command to start").atMost(AgentProcess.TURN).until(() -> Files.exists(started));
    }

    public void go() {
        touch(go);
    }

    public void awaitTried() {
        await("the command to try its write").atMost(AgentProcess.TURN).until(() -> Files.exists(tried));
    }

    public String output() {
        try {
            return Files.exists(output) ? Files.readString(output) : "(no output)";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Ends the command's waits early, after a failed step, so that the agent does not wait out its bounds. */
    public void giveUp() {
        touch(giveUp);
    }

    private static void touch(Path file) {
        try {
            Files.writeString(file, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
