package dev.baton.server;

import dev.baton.Baton;
import dev.baton.agent.AgentDialects;
import dev.baton.audit.AuditPruner;
import dev.baton.audit.AuditRetention;
import dev.baton.git.WorkTreeCopies;
import dev.baton.home.BatonHome;
import dev.baton.home.StateCheck;
import dev.baton.http.HttpApi;
import dev.baton.http.TeamRoutes;
import dev.baton.lock.SharedLockSpace;
import dev.baton.team.TeamLockSpace;
import dev.baton.store.SqliteStore;
import dev.baton.version.VersionSettings;
import dev.baton.version.VersionStore;
import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running sidecar: holds BATON_HOME's lock (one sidecar per home), the store, the HTTP API and
 * the stale-holder sweeper, and announces itself through {@code endpoint} once it serves.
 */
public final class Sidecar implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Sidecar.class);
    /** How often the audit is pruned to its retention (BATON_AUDIT_MAX_AGE, BATON_AUDIT_MAX_ROWS), a batch at a time. */
    private static final java.time.Duration AUDIT_PRUNE_EVERY = java.time.Duration.ofMinutes(1);

    private final BatonHome home;
    private final FileChannel lockChannel;
    private final FileLock homeLock;
    private final Baton baton;
    private final HttpApi api;
    private final ScheduledExecutorService sweeper;

    private Sidecar(BatonHome home, FileChannel lockChannel, FileLock homeLock, Baton baton, HttpApi api,
                    ScheduledExecutorService sweeper) {
        this.home = home;
        this.lockChannel = lockChannel;
        this.homeLock = homeLock;
        this.baton = baton;
        this.api = api;
        this.sweeper = sweeper;
    }

    /**
     * Creates the home owner-only, or checks an existing one is private, and refuses one the sidecar could not write,
     * with the fix in the message. {@code baton serve} calls it before it opens the log in the home; a start calls it
     * again, for starts that do not come through {@code baton serve}.
     */
    public static void prepareHome(BatonHome home) throws IOException {
        home.prepare();
        Optional<StateCheck.Problem> unwritable = StateCheck.unwritable(home);
        if (unwritable.isPresent()) {
            throw new IOException(unwritable.get().refusal());
        }
    }

    public static Sidecar start(SidecarOptions options) throws IOException {
        return start(options, baton -> List.of());
    }

    /** @param adapters route groups of other adapters (hooks, MCP, events), built once the domain exists */
    public static Sidecar start(SidecarOptions options, Function<Baton, List<Consumer<RoutesConfig>>> adapters)
            throws IOException {
        BatonHome home = options.home();
        prepareHome(home);
        // Checked before sidecar.lock exists: a start refused for its token must not look like a sidecar that ran.
        String token = home.ensureToken();
        String supervisorToken = home.ensureSupervisorToken();
        boolean ranBefore = home.sidecarRanBefore();
        FileChannel channel;
        try {
            channel = FileChannel.open(home.lockFile(), Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            home.ownerOnly(home.lockFile()); // one left by an older version may be 0644
        } catch (java.nio.file.FileSystemException e) {
            throw new IOException(home.dir() + " is not writable (" + e.getReason() + "); the sidecar keeps its"
                    + " database there and must be able to write it", e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException sameProcess) {
            lock = null; // another sidecar in this JVM holds it
        }
        if (lock == null) {
            channel.close();
            throw new AlreadyRunningException("a sidecar is already running on " + home.dir() + " (pid "
                    + pidQuietly(home) + ", endpoint " + home.readEndpoint().orElse("not written yet")
                    + "); stop it first or use another BATON_HOME");
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            // Checked holding the home's lock, so no other sidecar is writing what is read.
            if (!options.acceptEmptyState()) {
                Optional<StateCheck.Problem> damage = StateCheck.damage(home, ranBefore);
                if (damage.isPresent()) {
                    throw new IOException(damage.get().refusal());
                }
            }
            // SQLite gives the -wal and -shm files the database file's mode, so one 0600 file covers all three
            // whatever the umask; files left by an older version are narrowed too.
            home.ownerOnly(home.database());
            for (String suffix : List.of("-wal", "-shm")) {
                home.ownerOnlyIfPresent(home.dir().resolve(home.database().getFileName() + suffix));
            }
            home.ownerOnlyIfPresent(home.logFile());
            TeamLockSpace team = options.team() == null ? null
                    : new TeamLockSpace(options.team().named(home), options.clock(), home);
            Baton baton = new Baton(new SqliteStore(home.database()), options.clock(), options.processes(),
                    options.heartbeatTtl(), team == null ? SharedLockSpace.LOCAL : team,
                    new VersionStore(home.versionsDir(), VersionSettings.fromEnvironment(System.getenv())),
                    team != null && !options.team().perBranch() ? WorkTreeCopies.everyBranchOneLock()
                            : new WorkTreeCopies(options.branches()));
            opened.add(baton);
            List<Consumer<RoutesConfig>> routes = new ArrayList<>();
            if (team != null) {
                baton.closeWith(team);
                baton.messages().relayThrough(team);
                baton.negotiations().relayThrough(team);
                team.attach(baton.ledger(), baton.negotiations());
                routes.add(TeamRoutes.of(team));
            } else {
                routes.add(TeamRoutes.none());
            }
            // Not before: a first start killed before its database existed must not make the next one refuse.
            home.markDatabaseCreated(channel);
            routes.addAll(adapters.apply(baton));
            HttpApi api = HttpApi.start(baton, AgentDialects.ALL.kinds(), token, supervisorToken, options.port(),
                    options.inheritedListener(), routes);
            opened.add(api);
            ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "baton-sweeper");
                thread.setDaemon(true);
                return thread;
            });
            long every = options.sweepEvery().toMillis();
            sweeper.scheduleWithFixedDelay(() -> sweep(baton), every, every, TimeUnit.MILLISECONDS);
            AuditPruner pruner = new AuditPruner(baton.ledger(), AuditRetention.fromEnvironment(System.getenv()));
            sweeper.scheduleWithFixedDelay(() -> prune(pruner, baton), 0, AUDIT_PRUNE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            home.writePid(ProcessHandle.current().pid());
            // Logged before the endpoint announces the sidecar, so whoever finds the endpoint finds the line too.
            LOG.info("Baton sidecar serving on 127.0.0.1:{}{} with {}", api.port(),
                    options.inheritedListener() != null ? " (the service manager's socket)" : "",
                    baton.ledger().store().describe());
            home.writeEndpoint(api.port());
            return new Sidecar(home, channel, lock, baton, api, sweeper);
        } catch (IOException | RuntimeException e) {
            java.util.Collections.reverse(opened);
            opened.forEach(Sidecar::closeQuietly);
            lock.release();
            channel.close();
            throw e;
        }
    }

    private static void prune(AuditPruner pruner, Baton baton) {
        int versions = baton.versions().prune();
        if (versions > 0) {
            LOG.info("dropped {} kept versions past their bounds", versions);
        }
        try {
            int deleted = pruner.prune();
            if (deleted > 0) {
                LOG.info("pruned {} audit entries past retention", deleted);
            }
        } catch (RuntimeException e) {
            LOG.warn("audit pruning failed: {}", e.getMessage());
        }
    }

    private static void sweep(Baton baton) {
        try {
            baton.locks().cleanupStale().forEach(freed ->
                    LOG.info("freed {} lock(s) of session {}: {}", freed.files().size(), freed.session(), freed.reason()));
            baton.namedLocks().cleanupStale().forEach(name -> LOG.info("freed named lock {}: holder-exited", name));
            baton.sweepCoordination();
        } catch (RuntimeException e) {
            LOG.warn("stale-holder sweep failed: {}", e.getMessage());
        }
    }

    public int port() {
        return api.port();
    }

    public Baton baton() {
        return baton;
    }

    public BatonHome home() {
        return home;
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        try {
            home.clearRunningState();
        } catch (IOException e) {
            LOG.warn("could not remove {}: {}", home.endpointFile(), e.getMessage());
        }
        closeQuietly(api);
        closeQuietly(baton);
        try {
            homeLock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warn("could not release {}: {}", home.lockFile(), e.getMessage());
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", resource.getClass().getSimpleName(), e.getMessage());
        }
    }

    private static String pidQuietly(BatonHome home) {
        try {
            java.util.OptionalLong pid = home.readPid();
            return pid.isPresent() ? Long.toString(pid.getAsLong()) : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }
}
