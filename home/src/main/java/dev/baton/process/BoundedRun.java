package dev.baton.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One run of a child process that never takes longer than its limit: the command's input is written, its output
 * and errors are read while it runs (a full pipe cannot stall it), and the wait ends at the limit, when the command
 * and everything it started are killed. A command that exits while a process it left behind keeps its output open
 * (a daemon it started) ends the run at its exit, with what it printed: the reads are never waited for past a short
 * grace after the exit. Every process Baton runs and waits for goes through here.
 *
 * @param exit the exit code, or -1 when the command did not end within the limit
 * @param timedOut whether the limit passed first (the command was then killed)
 */
public record BoundedRun(int exit, byte[] out, byte[] err, boolean timedOut) {

    /** How long the output is read after the command exited, for what is still in the pipe. */
    private static final long GRACE_MILLIS = 500;

    /**
     * Starts {@code builder} and runs it to its end or to {@code limit}. Standard output and errors are captured
     * unless the builder redirects them (then they come back empty; with {@code redirectErrorStream} both are in
     * {@link #out}); standard input gets {@code input} and is then closed.
     *
     * @throws IOException when the command cannot be started
     */
    public static BoundedRun run(ProcessBuilder builder, byte[] input, Duration limit)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        Process process = builder.start();
        // A stream the builder sends elsewhere gets no reader thread: git runs on every shell command's check.
        Drain out = builder.redirectOutput() == ProcessBuilder.Redirect.PIPE ? new Drain(process.getInputStream(), "out") : null;
        Drain err = builder.redirectError() == ProcessBuilder.Redirect.PIPE && !builder.redirectErrorStream()
                ? new Drain(process.getErrorStream(), "err") : null;
        try {
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(input);
            } catch (IOException closedEarly) {
                // the command may exit without reading its input; its exit code and output say why
            }
            if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                kill(process);
                return new BoundedRun(-1, Drain.taken(out), Drain.taken(err), true);
            }
            long grace = Math.min(GRACE_MILLIS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            for (Drain drain : new Drain[] {out, err}) {
                if (drain != null) {
                    drain.join(grace);
                }
            }
            return new BoundedRun(process.exitValue(), Drain.taken(out), Drain.taken(err), false);
        } catch (InterruptedException e) {
            kill(process);
            throw e;
        }
    }

    /** The output as text (UTF-8). */
    public String outText() {
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The errors as text (UTF-8). */
    public String errText() {
        return new String(err, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Reads one stream of the command while it runs. */
    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        Drain(InputStream in, String name) {
            super("baton-run-" + name);
            this.in = in;
            setDaemon(true);
            start();
        }

        @Override
        public void run() {
            byte[] chunk = new byte[8192];
            try (in) {
                for (int read; (read = in.read(chunk)) >= 0; ) {
                    buffer.write(chunk, 0, read); // ByteArrayOutputStream's methods are synchronized
                }
            } catch (IOException e) {
                // the stream was closed under the read (the command was killed): what came is kept
            }
        }

        /** What {@code drain} has read so far; nothing for a stream that had none. */
        static byte[] taken(Drain drain) {
            if (drain == null) {
                return new byte[0];
            }
            return drain.buffer.toByteArray();
        }
    }
}
