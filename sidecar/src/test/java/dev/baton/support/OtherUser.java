package dev.baton.support;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second OS user for tests of what another local user can do. Created with useradd when the tests run as root;
 * otherwise the test is skipped, saying why.
 */
public final class OtherUser {

    public static final String NAME = "baton-other";

    private OtherUser() {
    }

    /** The user's name, creating the user if needed; skips the calling test when that is impossible. */
    public static String require() {
        String why = null;
        if (!"root".equals(System.getProperty("user.name"))) {
            why = "tests of a second OS user need root to create one (running as " + System.getProperty("user.name") + ")";
        } else if (run("id", "-u", NAME).exit() != 0) {
            Result made = run("useradd", "--system", "--no-create-home", "--shell", "/bin/sh", NAME);
            // Test classes run in two JVMs at once: the other one may have made the user meanwhile.
            if (made.exit() != 0 && run("id", "-u", NAME).exit() != 0) {
                why = "useradd " + NAME + " failed: " + made.output();
            }
        }
        if (why != null) {
            System.out.println("skipped: " + why);
        }
        assumeTrue(why == null, why);
        return NAME;
    }

    /** Runs a shell command as the other user; exit code and combined output. */
    public static Result runAs(String shellCommand) {
        return run("su", "-s", "/bin/sh", NAME, "-c", shellCommand);
    }

    public record Result(int exit, String output) {
    }

    /**
     * A listener of the other user on a free 127.0.0.1 port (perl, as the other user): it prints "got: LINE" for the
     * first line of every connection, so a test can tell what, if anything, was sent to it.
     */
    public static Listener listen() throws IOException {
        Process process = new ProcessBuilder("su", "-s", "/bin/sh", require(), "-c", "exec perl -MIO::Socket::INET -e '"
                + "$s = IO::Socket::INET->new(LocalAddr => \"127.0.0.1\", LocalPort => 0, Listen => 5) or die; $| = 1;"
                + " print $s->sockport, \"\\n\"; while ($c = $s->accept) { $l = <$c>; print \"got: $l\"; close $c }'")
                .redirectErrorStream(true).start();
        BufferedReader heard = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        try {
            return new Listener(process, heard, Integer.parseInt(heard.readLine().trim()));
        } catch (IOException | RuntimeException e) {
            Listener.end(process);
            throw e;
        }
    }

    /** The other user's listener: its port, and what it heard, a line per connection. */
    public static final class Listener implements AutoCloseable {
        private final Process process;
        private final BufferedReader heard;
        private final int port;

        private Listener(Process process, BufferedReader heard, int port) {
            this.process = process;
            this.heard = heard;
            this.port = port;
        }

        public int port() {
            return port;
        }

        /** The next "got: LINE" the listener printed (waits for it). */
        public String nextHeard() throws IOException {
            return heard.readLine();
        }

        @Override
        public void close() {
            end(process);
        }

        /** Ends the listener itself too: it runs below su, as the other user, and outlives a killed su. */
        private static void end(Process su) {
            su.descendants().forEach(ProcessHandle::destroyForcibly);
            su.destroyForcibly();
        }
    }

    private static Result run(String... command) {
        try {
            Process process = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " did not finish in 60 s");
            }
            return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
