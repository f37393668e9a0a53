package dev.baton.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command that cannot outlive this process, even if this process is SIGKILLed: it runs in a process group of its
 * own under a small shell reaper, which ends the whole group once this process's end of a FIFO closes. The kernel
 * closes that end however this process dies, so no signal handler (which SIGKILL skips) is needed. Java cannot set
 * {@code PR_SET_PDEATHSIG} on a child, and that would reach only CMD itself, not the processes CMD started.
 * Where {@code setsid} or {@code mkfifo} is missing (not Linux), CMD runs as a plain child.
 */
final class TiedCommand {

    /**
     * Runs as {@code sh -c REAPER reaper FIFO CMD ARGS…}, as leader of a new session and process group (setsid). The
     * reaper opens the FIFO before CMD runs (this process holds it open already, so the open does not wait) and
     * removes it and its directory at once: the open descriptors keep it working, and nothing is left in the temporary
     * directory however this process ends. The watcher reads it until its last writer, this process, is gone, then
     * signals the group (CMD, what CMD started, the reaper): SIGTERM, and SIGKILL 5 s later for whatever ignored it.
     * The reaper exits with CMD's status.
     */
    private static final String REAPER = "fifo=$1; shift\n"
            + "exec 3<\"$fifo\"\n"
            + "rm -f \"$fifo\"; rmdir \"${fifo%/*}\" 2>/dev/null\n"
            + "( trap '' TERM; cat <&3 >/dev/null; kill -TERM 0; sleep 5; kill -KILL 0 ) &\n"
            + "exec 3<&-\n"
            + "\"$@\"\n";

    private static final List<String> PROGRAMS = List.of("/usr/bin/setsid", "/bin/setsid", "/usr/bin/mkfifo", "/bin/mkfifo");

    private final List<String> command;
    private final Path fifo;
    private RandomAccessFile lifeline;
    private Process process;

    private TiedCommand(List<String> command, Path fifo) {
        this.command = command;
        this.fifo = fifo;
    }

    static TiedCommand prepare(List<String> command) {
        Path fifo = null;
        if (available("setsid") && available("mkfifo")) {
            try {
                Path dir = Files.createTempDirectory("baton-exclusive");
                fifo = dir.resolve("lifeline");
                Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).inheritIO().start();
                if (mkfifo.waitFor() != 0) {
                    fifo = null;
                }
            } catch (IOException e) {
                fifo = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException("interrupted");
            }
        }
        return new TiedCommand(command, fifo);
    }

    private static boolean available(String program) {
        return PROGRAMS.stream().anyMatch(path -> path.endsWith("/" + program) && Files.isExecutable(Path.of(path)));
    }

    synchronized Process start() throws IOException {
        if (fifo == null) {
            process = new ProcessBuilder(command).inheritIO().start();
            return process;
        }
        // Read-write: opening a FIFO so does not wait for a reader, and this process stays its only writer.
        lifeline = new RandomAccessFile(fifo.toFile(), "rw");
        List<String> reaper = new ArrayList<>(List.of("setsid", "sh", "-c", REAPER, "baton-exclusive", fifo.toString()));
        reaper.addAll(command);
        process = new ProcessBuilder(reaper).inheritIO().start();
        return process;
    }

    /** Ends CMD and its group if it still runs (this process is exiting), and cleans up. Idempotent. */
    synchronized void end() {
        if (lifeline != null) {
            try {
                lifeline.close(); // the watcher sees the end of the FIFO and signals the group
            } catch (IOException e) {
                // closing is all that matters; nothing to report
            }
            lifeline = null;
            if (process != null) {
                try {
                    process.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        } else if (process != null && fifo == null && process.isAlive()) {
            process.destroy();
        }
        if (fifo != null) {
            try {
                Files.deleteIfExists(fifo);
                Files.deleteIfExists(fifo.getParent());
            } catch (IOException e) {
                // a leftover empty directory in the temp dir harms nothing
            }
        }
    }
}
