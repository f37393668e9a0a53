package dev.baton.cli;

import dev.baton.home.BatonHome;
import dev.baton.http.LoopbackPeer;
import dev.baton.server.AlreadyRunningException;
import dev.baton.server.InheritedListener;
import dev.baton.server.OtherSidecar;
import dev.baton.server.Sidecar;
import dev.baton.server.SidecarAdapters;
import dev.baton.server.SidecarOptions;
import dev.baton.store.SqliteLibrary;
import io.javalin.util.JavalinBindException;
import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
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

    /**
     * How long a start that finds another sidecar starting waits for it to serve: far more than a start takes, even on
     * a loaded machine (docs/PERFORMANCE.md, "Start-up and footprint").
     */
    private static final Duration WAIT_FOR_OTHER = Duration.ofSeconds(60);

    @Spec CommandSpec spec;

    @Option(names = "--port", description = "Port on 127.0.0.1 (default: $BATON_PORT or 7433; 0 = any free port).")
    Integer port;

    @Option(names = "--accept-empty-state", description = "Start even if the database seems to have lost the locks an"
            + " earlier sidecar held (it refuses otherwise, saying what is missing).")
    boolean acceptEmptyState;

    /**
     * The command for arguments written the plain way ({@code --port N}, {@code --port=N}, {@code --accept-empty-state},
     * each at most once), or empty for anything else, which picocli then parses, answers and refuses as it does every
     * command. Read by hand because a hook that starts the sidecar waits for it: loading picocli (its classes predate
     * what a class-data archive takes, so each start verifies them anew) and building even this one command took a
     * sixth of a start (docs/PERFORMANCE.md, "Start-up and footprint").
     */
    static Optional<ServeCommand> fromPlainArguments(String... args) {
        ServeCommand command = new ServeCommand();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            if (arg.equals("--port") && i + 1 < args.length) {
                value = args[++i];
            } else if (arg.startsWith("--port=")) {
                value = arg.substring("--port=".length());
            } else if (arg.equals("--accept-empty-state") && !command.acceptEmptyState) {
                command.acceptEmptyState = true;
                continue;
            }
            if (value == null || command.port != null || !value.matches("[0-9]{1,5}")) {
                return Optional.empty();
            }
            command.port = Integer.valueOf(value);
        }
        return Optional.of(command);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        BatonHome home = BatonHome.fromEnvironment(System.getenv());
        int chosen = port != null ? port : portFromEnvironment();
        if (chosen < 0 || chosen > 65535) {
            throw new CliException("--port must be between 0 and 65535");
        }
        Sidecar sidecar = null;
        try {
            // Before the log is opened: a home the sidecar could not write is refused with the fix, not a bare path.
            home.prepare(); // found private before a library is loaded from it; prepareHome repeats it (a few stats)
            loadSqliteBeside(home);
            Sidecar.prepareHome(home);
            home.ownerOnly(home.logFile()); // 0600 from the start, whatever the umask
            // Output already going to the log means a hook or an MCP server started this sidecar, detached.
            boolean startedForAnAgent = ServeLog.alreadyWritesTo(home.logFile());
            ServeLog.alsoTo(home.logFile());
            SidecarOptions options;
            try {
                options = SidecarOptions.defaults(home, chosen);
            } catch (IllegalArgumentException badSetting) { // a setting of the environment, named in the message
                throw new CliException(badSetting.getMessage());
            }
            // Under socket activation (`baton service install`) the service manager's socket is on standard input.
            Optional<ServerSocketChannel> inherited = InheritedListener.find();
            if (inherited.isPresent()) {
                options = options.servingInherited(inherited.get());
            }
            while (sidecar == null) {
                try {
                    sidecar = Sidecar.start(acceptEmptyState ? options.acceptingEmptyState() : options, SidecarAdapters::of);
                } catch (AlreadyRunningException taken) {
                    OtherSidecar.Outcome other = OtherSidecar.await(home, WAIT_FOR_OTHER);
                    if (other instanceof OtherSidecar.Serving serving) {
                        // A hook or MCP server that started this one wanted a sidecar, and one serves: nothing to say.
                        if (startedForAnAgent) {
                            return 0;
                        }
                        throw new CliException(serving.message());
                    }
                    if (other instanceof OtherSidecar.Stuck stuck) {
                        throw new CliException(stuck.message());
                    }
                    // Gone: its start failed and freed the home; this one starts in its place.
                }
            }
        } catch (java.net.BindException | JavalinBindException e) {
            throw new CliException("port " + chosen + " is in use by another program; choose another with --port or"
                    + " BATON_PORT (0 = any free port)");
        } catch (IOException e) {
            throw new CliException(e.getMessage());
        }
        // Serving now: what the first hook call's caller lookup would load is loaded beside it, before that call comes.
        runBeside("baton-prepare-lookup", LoopbackPeer::prepare);
        CountDownLatch stopped = new CountDownLatch(1);
        Sidecar serving = sidecar;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            serving.close();
            stopped.countDown();
        }, "baton-shutdown"));
        // The logger already said where it serves (in sidecar.log too); a terminal user needs no second line.
        stopped.await();
        return 0;
    }

    /**
     * SQLite's native library is readied on another thread while this one checks the home and reads the database's
     * files: the first connection would otherwise wait for it, and at start the JVM's compilers leave a core free.
     */
    private static void loadSqliteBeside(BatonHome home) {
        runBeside("baton-sqlite-load", SqliteLibrary.choose(home)::load);
    }

    /**
     * Runs {@code work} on a daemon thread of its own, which never keeps the sidecar from exiting. A failure there is
     * dropped: it comes again, and is reported, where the work is needed (the first connection, the first lookup);
     * and a sidecar that exits at once, because another one runs, may stop the work halfway, which must not print
     * a stack trace into the log.
     */
    private static void runBeside(String name, Runnable work) {
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (RuntimeException | LinkageError e) {
                // dropped, as said above
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
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
