package dev.baton.cli;

import dev.baton.home.BatonHome;
import dev.baton.server.InheritedListener;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import io.javalin.util.JavalinBindException;
import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code baton serve}: runs the sidecar in the foreground until it is stopped (SIGTERM, Ctrl-C). */
@Command(name = "serve", description = {"Run the sidecar in the foreground until Ctrl-C, SIGTERM or `baton stop`.",
        "It logs to the terminal and to sidecar.log in BATON_HOME."})
final class ServeCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--port", description = "Port on 127.0.0.1 (default: $BATON_PORT or 7433; 0 = any free port).")
    Integer port;

    @Option(names = "--accept-empty-state", description = "Start even if the database seems to have lost the locks an"
            + " earlier sidecar held (it refuses otherwise, saying what is missing).")
    boolean acceptEmptyState;

    @Override
    public Integer call() throws IOException, InterruptedException {
        BatonHome home = BatonHome.fromEnvironment(System.getenv());
        int chosen = port != null ? port : portFromEnvironment();
        if (chosen < 0 || chosen > 65535) {
            throw new CliException("--port must be between 0 and 65535");
        }
        Sidecar sidecar;
        try {
            // Before the log is opened: a home the sidecar could not write is refused with the fix, not a bare path.
            Sidecar.prepareHome(home);
            home.ownerOnly(home.logFile()); // 0600 from the start, whatever the umask
            ServeLog.alsoTo(home.logFile());
            SidecarOptions options = SidecarOptions.defaults(home, chosen);
            // Under socket activation (`baton service install`) the service manager's socket is on standard input.
            Optional<ServerSocketChannel> inherited = InheritedListener.find();
            if (inherited.isPresent()) {
                options = options.servingInherited(inherited.get());
            }
            sidecar = Sidecar.start(acceptEmptyState ? options.acceptingEmptyState() : options, SidecarAdapters::of);
        } catch (java.net.BindException | JavalinBindException e) {
            throw new CliException("port " + chosen + " is in use by another program; choose another with --port or"
                    + " BATON_PORT (0 = any free port)");
        } catch (IOException e) {
            throw new CliException(e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            sidecar.close();
            stopped.countDown();
        }, "baton-shutdown"));
        // The logger already said where it serves (in sidecar.log too); a terminal user needs no second line.
        stopped.await();
        return 0;
    }

    private static int portFromEnvironment() {
        String value = System.getenv("BATON_PORT");
        if (value == null || value.isBlank()) {
            return BatonHome.DEFAULT_PORT;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new CliException("BATON_PORT must be a port number, was '" + value + "'");
        }
    }
}
