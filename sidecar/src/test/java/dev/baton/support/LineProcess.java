package dev.baton.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real process spoken to in lines, as an agent speaks to a stdio MCP server: lines to its stdin, each line of its
 * stdout kept in order by a reader thread. Every wait is bounded, so a process that hangs fails the test.
 */
public final class LineProcess implements AutoCloseable {

    /** How long one line or the exit may take: far more than any needs. */
    public static final long WAIT_SECONDS = 60;

    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    public LineProcess(Process process, String name) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ended) {
                // the process was closed
            }
        }, name + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    public Process process() {
        return process;
    }

    public void tell(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** The next line the process prints, which must come within {@link #WAIT_SECONDS}; {@code what} names it. */
    public String nextLine(String what) throws InterruptedException {
        String line = lines.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(line).as("%s within %d s", what, WAIT_SECONDS).isNotNull();
        return line;
    }

    /** The lines printed and not taken yet. */
    public List<String> unread() {
        return List.copyOf(lines);
    }

    public int exitCode() throws InterruptedException {
        assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as("the process exits").isTrue();
        return process.exitValue();
    }

    /** Closes its stdin and waits for it to exit (ending it after {@link #WAIT_SECONDS}). */
    @Override
    public void close() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException alreadyGone) {
            // it exited first
        }
        if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
