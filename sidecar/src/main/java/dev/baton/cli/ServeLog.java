package dev.baton.cli;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The log of a foreground {@code baton serve}: what it prints goes to the terminal and to {@code sidecar.log}, so the
 * log file has the same lines however the sidecar was started. A sidecar started by a hook already has its output
 * appended to {@code sidecar.log}; it is not written twice.
 */
final class ServeLog {

    private ServeLog() {
    }

    /** Copies System.out and System.err (where the logger writes) into {@code logFile}, unless they already go there. */
    static void alsoTo(Path logFile) throws IOException {
        if (alreadyWritesTo(logFile)) {
            return;
        }
        OutputStream file = new FileOutputStream(logFile.toFile(), true);
        System.setOut(new PrintStream(new Tee(System.out, file), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Tee(System.err, file), true, StandardCharsets.UTF_8));
    }

    /** Whether stdout or stderr is the log file already ({@code >>sidecar.log 2>&1}), as Linux's /proc shows it. */
    static boolean alreadyWritesTo(Path logFile) {
        try {
            Path real = logFile.toRealPath();
            for (String fd : new String[] {"1", "2"}) {
                Path target = Path.of("/proc/self/fd", fd);
                if (Files.exists(target) && Files.isSameFile(target, real)) {
                    return true;
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            return false; // no log file yet, or no /proc: nothing writes to it
        }
        return false;
    }

    /** Two streams written as one; a dozen lines, not worth a library (commons-io is not otherwise needed). */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            first.write(bytes, offset, length);
            second.write(bytes, offset, length);
        }

        @Override
        public synchronized void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
