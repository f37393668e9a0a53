package dev.baton.home;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sidecar's directory ({@code BATON_HOME}, default {@code $XDG_STATE_HOME/baton}) and the one owner of the
 * files through which hooks, the CLI, the installer and the dashboard find the sidecar: {@code token},
 * {@code endpoint} and {@code sidecar.pid}. Each is a single line ending in a newline (the hook script reads
 * lines); every reader here also accepts a file without the final newline.
 */
public final class BatonHome {

    public static final int DEFAULT_PORT = 7433;
    public static final String LOOPBACK = "127.0.0.1";
    private static final String SQLITE_LIBRARY = "sqlite-native-";

    /** A token shorter than this (hex characters) is refused: the sidecar writes 64. */
    public static final int MIN_TOKEN_LENGTH = 32;
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    /** What {@code sidecar.lock} holds once a sidecar has created the home's database. */
    private static final byte[] DATABASE_CREATED = "database created\n".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern ENDPOINT = Pattern.compile("127\\.0\\.0\\.1:([0-9]{1,5})");

    private final Path dir;

    public BatonHome(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /** BATON_HOME, else $XDG_STATE_HOME/baton, else ~/.local/state/baton. */
    public static BatonHome fromEnvironment(Map<String, String> env) {
        String explicit = env.get("BATON_HOME");
        if (explicit != null && !explicit.isBlank()) {
            return new BatonHome(Path.of(explicit));
        }
        String state = env.get("XDG_STATE_HOME");
        if (state != null && !state.isBlank()) {
            return new BatonHome(Path.of(state, "baton"));
        }
        String home = env.get("HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("user.home");
        }
        return new BatonHome(Path.of(home, ".local", "state", "baton"));
    }

    public Path dir() {
        return dir;
    }

    public Path database() {
        return dir.resolve("baton.db");
    }

    public Path endpointFile() {
        return dir.resolve("endpoint");
    }

    public Path tokenFile() {
        return dir.resolve("token");
    }

    /** The supervisor's credential: the dashboard and {@code baton … --supervisor} send it instead of the token. */
    public Path supervisorTokenFile() {
        return dir.resolve("supervisor-token");
    }

    public Path pidFile() {
        return dir.resolve("sidecar.pid");
    }

    public Path logFile() {
        return dir.resolve("sidecar.log");
    }

    public Path lockFile() {
        return dir.resolve("sidecar.lock");
    }

    /**
     * Whether a sidecar created its database in this home before: {@code sidecar.lock} says so from then on (see
     * {@link #markDatabaseCreated}). A lock file that is there but empty was left by a start that ended before its
     * database existed (killed at its first start, or refused), or by a build that did not mark it, whose first start
     * now marks it; a missing database is then a new one, not a lost one.
     */
    public boolean sidecarRanBefore() throws IOException {
        Path lock = lockFile();
        return Files.exists(lock) && Files.size(lock) > 0;
    }

    /**
     * Records, through the channel of the {@code sidecar.lock} its caller holds, that this home's database exists:
     * from then on a missing or empty database means state was lost ({@link StateCheck}).
     */
    public void markDatabaseCreated(FileChannel heldLock) throws IOException {
        if (heldLock.size() == 0) {
            heldLock.write(ByteBuffer.wrap(DATABASE_CREATED), 0);
            heldLock.force(false);
        }
    }

    /**
     * Where the sidecar keeps the versions of held files it can put back ({@code versions/}, one file per content,
     * named by its SHA-256); its format is the sidecar's {@code version/VersionStore}'s alone.
     */
    public Path versionsDir() {
        return dir.resolve("versions");
    }

    /**
     * Where the sidecar unpacks the native part of a library before loading it (JNA's {@code jna.tmpdir}): inside
     * the private home, so no other user can put a library of their own in its place; created owner-only (0700) if
     * missing. Emptied again once loaded.
     */
    public Path nativeLibraries() throws IOException {
        Path natives = dir.resolve("native");
        if (!Files.isDirectory(natives)) {
            Files.createDirectory(natives, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        }
        return natives;
    }

    /**
     * Creates the directory owner-only (0700), or checks that an existing one is private: see {@link #requirePrivate()}.
     */
    public void prepare() throws IOException {
        if (!Files.exists(dir)) {
            Files.createDirectories(dir.getParent());
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
            } catch (FileAlreadyExistsException raced) {
                // another process created it first; the check below still applies
            }
        }
        requirePrivate();
    }

    /**
     * Refuses a home owned by another user (they could have swapped the token or the database) or one that others may
     * read, write or enter (the token would be theirs to read). Nothing is changed: the message says how to fix it, since
     * a home left open may already have been read or changed and its owner should look before closing it.
     */
    public void requirePrivate() throws IOException {
        UserPrincipal owner = Files.getOwner(dir);
        UserPrincipal me = dir.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        if (!owner.equals(me)) {
            throw new NotPrivateException(dir + " belongs to " + owner.getName() + ", not to " + me.getName() + "; Baton keeps"
                    + " its token and database there, so it must be yours", "use another BATON_HOME, or `chown "
                    + me.getName() + " " + dir + "` if it should be yours", ": ");
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(dir);
        if (!OWNER_ONLY_DIR.containsAll(permissions)) {
            boolean writable = permissions.contains(PosixFilePermission.GROUP_WRITE)
                    || permissions.contains(PosixFilePermission.OTHERS_WRITE);
            throw new NotPrivateException(dir + " is " + (writable ? "writable by" : "open to") + " other users ("
                    + PosixFilePermissions.toString(permissions) + "):"
                    + (writable ? " they could have swapped the token or the database" : " Baton's files must be the"
                    + " user's alone"), "check what is in it, run `chmod 700 " + dir + "` and start again", "; ");
        }
    }

    /**
     * A home Baton must not use ({@link #requirePrivate()}): its message is the problem and the fix in one sentence, as
     * a start prints it; {@link #problem()} and {@link #fix()} are the two apart, as {@code baton doctor} shows them.
     */
    public static final class NotPrivateException extends IOException {

        private final String problem;
        private final String fix;

        NotPrivateException(String problem, String fix, String joint) {
            super(problem + joint + fix);
            this.problem = problem;
            this.fix = fix;
        }

        public String problem() {
            return problem;
        }

        public String fix() {
            return fix;
        }
    }

    /** Makes a file of the home readable and writable by its owner only, creating it empty if it is missing. */
    public void ownerOnly(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
        } catch (FileAlreadyExistsException exists) {
            Files.setPosixFilePermissions(file, OWNER_ONLY_FILE);
        }
    }

    /** Like {@link #ownerOnly}, for a file that may not exist yet (it is left missing then). */
    public void ownerOnlyIfPresent(Path file) throws IOException {
        if (Files.exists(file)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY_FILE);
        }
    }

    /**
     * The token, created on first use (by the sidecar or by {@code baton install}, whichever comes first):
     * 32 random bytes, hex, one line, in a file that only the owner can read from the moment it exists.
     */
    public String ensureToken() throws IOException {
        return ensureSecret(tokenFile());
    }

    /** The supervisor's token, created like the agents' token; only the person's own tools read it. */
    public String ensureSupervisorToken() throws IOException {
        return ensureSecret(supervisorTokenFile());
    }

    public Optional<String> readSupervisorToken() throws IOException {
        return readLine(supervisorTokenFile());
    }

    private String ensureSecret(Path file) throws IOException {
        prepare();
        if (!Files.exists(file)) {
            byte[] bytes = new byte[32];
            new SecureRandom().nextBytes(bytes);
            Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temp, HexFormat.of().formatHex(bytes) + "\n", StandardCharsets.US_ASCII);
            try {
                // A link, not a move: rename(2) would replace a token another process made meanwhile, and the two would
                // go on with different tokens; a link is made whole or not at all, so the first one's wins for both.
                Files.createLink(file, temp);
            } catch (FileAlreadyExistsException raced) {
                // the other process's token stands
            } finally {
                Files.deleteIfExists(temp);
            }
        }
        String secret = readLine(file).orElseThrow(() -> new IOException("the token file " + file + " is empty; delete it"
                + " and start again to have a new one made"));
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (!OWNER_ONLY_FILE.containsAll(permissions)) {
            throw new IOException("the token file " + file + " is open to other users (" + PosixFilePermissions.toString(permissions)
                    + "), so they may know it; delete it and start again to have a new one made (then run `baton install`"
                    + " again so the agents' settings get it)");
        }
        if (secret.length() < MIN_TOKEN_LENGTH) {
            throw new IOException("the token in " + file + " is " + secret.length() + " characters long, too short to keep"
                    + " others out (at least " + MIN_TOKEN_LENGTH + "); delete it and start again to have a new one made");
        }
        return secret;
    }

    public Optional<String> readToken() throws IOException {
        return readLine(tokenFile());
    }

    /** Announces that a sidecar serves on {@code port}; written once it accepts connections. */
    public void writeEndpoint(int port) throws IOException {
        writeAtomically(endpointFile(), LOOPBACK + ":" + port + "\n");
    }

    /** host:port from the endpoint file, present only while a sidecar is serving. */
    public Optional<String> readEndpoint() throws IOException {
        return readLine(endpointFile());
    }

    /** The port in the endpoint file; empty when there is none, or when it does not hold {@code 127.0.0.1:PORT}. */
    public Optional<Integer> readEndpointPort() throws IOException {
        return parsePort(readEndpoint());
    }

    private static Optional<Integer> parsePort(Optional<String> endpoint) {
        if (endpoint.isEmpty()) {
            return Optional.empty();
        }
        Matcher matcher = ENDPOINT.matcher(endpoint.get());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        int port = Integer.parseInt(matcher.group(1));
        return port >= 1 && port <= 65535 ? Optional.of(port) : Optional.empty();
    }

    public void writePid(long pid) throws IOException {
        writeAtomically(pidFile(), pid + "\n");
    }

    /** The pid the running sidecar wrote; empty when there is no pid file or it holds no number. */
    /**
     * The sidecar that holds this home's lock, if one does. The pid file alone could name a process that reused the
     * pid of a sidecar that was killed; the lock is held only while a sidecar lives. A sidecar that has just taken the
     * lock writes its pid file a moment later, so that is waited for (a few seconds at most).
     */
    public Optional<ProcessHandle> runningSidecar() throws IOException, InterruptedException {
        if (!Files.exists(lockFile())) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(lockFile(), StandardOpenOption.WRITE)) {
            FileLock probe;
            try {
                probe = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                probe = null; // a sidecar in this JVM holds it
            }
            if (probe != null) {
                probe.release();
                return Optional.empty();
            }
        }
        for (int attempt = 0; attempt < 100 && readPid().isEmpty(); attempt++) {
            Thread.sleep(50); // polls a file another process writes; no event to wait on
        }
        OptionalLong pid = readPid();
        if (pid.isEmpty()) {
            throw new IOException("a sidecar holds " + lockFile() + " but its pid file " + pidFile()
                    + " is missing or unreadable; stop it by hand");
        }
        return ProcessHandle.of(pid.getAsLong());
    }

    public OptionalLong readPid() throws IOException {
        Optional<String> text = readLine(pidFile());
        if (text.isEmpty() || !text.get().matches("[0-9]{1,18}")) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Long.parseLong(text.get()));
    }

    /**
     * SQLite's native library as a start of the sidecar unpacked it from its jar; {@code variant} names the driver's
     * version and the platform. Kept here, in the owner's private directory, a start loads it as it is instead of
     * unpacking it again into the shared temporary directory.
     */
    public Path sqliteLibrary(String variant) {
        return dir.resolve(SQLITE_LIBRARY + variant);
    }

    /** Keeps {@code library} as the {@link #sqliteLibrary} of {@code variant}, owner-only, and drops other variants'. */
    public void keepSqliteLibrary(String variant, InputStream library) throws IOException {
        Path file = sqliteLibrary(variant);
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temp)) { // the temporary file's mode, 0600, stays
                library.transferTo(out);
            }
            moveInPlace(temp, file);
        } finally {
            Files.deleteIfExists(temp);
        }
        try (DirectoryStream<Path> kept = Files.newDirectoryStream(dir, SQLITE_LIBRARY + "*")) {
            for (Path other : kept) {
                if (!other.equals(file) && !other.getFileName().toString().endsWith(".tmp")) {
                    Files.deleteIfExists(other);
                }
            }
        }
    }

    /**
     * Present while a service manager listens on the sidecar's socket and starts it on the first connection
     * ({@code baton service install}): one line {@code 127.0.0.1:PORT}, like {@code endpoint}. The hook connects
     * there, without its token, to have the sidecar started instead of starting one itself.
     */
    public Path serviceSocketFile() {
        return dir.resolve("service-socket");
    }

    public void writeServiceSocket(int port) throws IOException {
        prepare();
        writeAtomically(serviceSocketFile(), LOOPBACK + ":" + port + "\n");
    }

    /** The port in {@code service-socket}; empty when there is none or it does not hold {@code 127.0.0.1:PORT}. */
    public Optional<Integer> readServiceSocketPort() throws IOException {
        return parsePort(readLine(serviceSocketFile()));
    }

    public void clearServiceSocket() throws IOException {
        Files.deleteIfExists(serviceSocketFile());
    }

    /**
     * The settings the service runs the sidecar with ({@code baton service install} copies the team's from the shell
     * that installs it), one {@code NAME="VALUE"} per line as systemd's EnvironmentFile reads them. Readable by the
     * user alone: a team's database URL may carry its password.
     */
    public Path serviceEnvironmentFile() {
        return dir.resolve("service.env");
    }

    /** Whether the file can carry the setting: an environment name, and a value of printable ASCII on one line. */
    public static boolean carriesServiceSetting(String name, String value) {
        return name.matches("[A-Z_][A-Z0-9_]*") && value.chars().allMatch(c -> c >= ' ' && c < 127);
    }

    public void writeServiceEnvironment(java.util.SortedMap<String, String> settings) throws IOException {
        prepare();
        StringBuilder text = new StringBuilder("# The sidecar service's settings, written by `baton service install`.\n");
        settings.forEach((name, value) -> {
            if (!carriesServiceSetting(name, value)) {
                throw new IllegalArgumentException("not a setting the service can carry: " + name);
            }
            text.append(name).append("=\"").append(value.replace("\\", "\\\\").replace("\"", "\\\"")
                    .replace("$", "\\$").replace("`", "\\`")).append("\"\n");
        });
        writeAtomically(serviceEnvironmentFile(), text.toString());
    }

    public void clearServiceEnvironment() throws IOException {
        Files.deleteIfExists(serviceEnvironmentFile());
    }

    /** Removes what announces a running sidecar (endpoint first, so nobody finds an endpoint without its pid). */
    public void clearRunningState() throws IOException {
        Files.deleteIfExists(endpointFile());
        Files.deleteIfExists(pidFile());
    }

    /** Writes a small file whole or not at all, so a reader never sees half of it. */
    public void writeAtomically(Path file, String content) throws IOException {
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        Files.writeString(temp, content, StandardCharsets.US_ASCII);
        moveInPlace(temp, file);
    }

    /** Puts {@code temp} in {@code file}'s place in one step where the file system can, so no reader sees half. */
    private static void moveInPlace(Path temp, Path file) throws IOException {
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The first line of a one-line file, with or without its final newline; empty when missing or blank. */
    private static Optional<String> readLine(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        int newline = text.indexOf('\n');
        if (newline >= 0) {
            text = text.substring(0, newline).strip();
        }
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }
}
