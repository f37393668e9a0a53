package dev.baton.home;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the state in BATON_HOME can be trusted before a sidecar opens it, so that a sidecar never starts silently
 * empty or with part of its locks gone: the sidecar refuses to start on what this finds, and {@code baton doctor}
 * reports it. Nothing here writes: the database is read as an immutable file and its log by {@link WalFile}.
 */
public final class StateCheck {

    public static final String ACCEPT_FLAG = "--accept-empty-state";

    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    /** Something wrong with {@code file}, and what to do about it. */
    public record Problem(Path file, String what, String fix) {
        /** The sidecar's refusal: what is wrong, then the fix. */
        public String refusal() {
            return "refusing to start: " + what + ". " + fix;
        }
    }

    private StateCheck() {
    }

    /** Every problem a start would refuse on, for {@code baton doctor}. */
    public static List<Problem> inspect(BatonHome home) throws IOException {
        List<Problem> problems = new ArrayList<>();
        unwritable(home).ifPresent(problems::add);
        damage(home, home.sidecarRanBefore()).ifPresent(problems::add);
        return problems;
    }

    /**
     * A file the sidecar must write (or the home itself) that its owner may not write: SQLite would open it anyway and
     * every write would then fail. Checked by the mode bits too, since root may write whatever the mode says.
     */
    public static Optional<Problem> unwritable(BatonHome home) throws IOException {
        for (Path file : List.of(home.dir(), home.database(), wal(home), shm(home), home.lockFile())) {
            if (!Files.exists(file)) {
                continue;
            }
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            boolean dir = Files.isDirectory(file);
            String shown = PosixFilePermissions.toString(mode);
            String where = dir ? " in it" : " there";
            if (!mode.contains(PosixFilePermission.OWNER_WRITE) || (dir && !mode.contains(PosixFilePermission.OWNER_EXECUTE))) {
                return Optional.of(new Problem(file, file + " is read-only (" + shown + "): the sidecar keeps its locks"
                        + where + " and could not record a single change",
                        "Run `chmod " + (dir ? "u+rwx " : "u+w ") + file + "` and start again."));
            }
            if (!Files.isWritable(file)) {
                return Optional.of(new Problem(file, file + " is not writable (" + shown + ", on a read-only file system"
                        + " or not yours): the sidecar keeps its locks" + where + " and could not record a single change",
                        "Make it writable by you (remount its file system read-write, or `chown` it to you), or use"
                        + " another BATON_HOME, and start again."));
            }
        }
        return Optional.empty();
    }

    /**
     * State an earlier sidecar left that would start as less than it held: the database gone, empty, not a database,
     * without its tables, with fewer rows than a clean stop recorded; or, after a stop that was not clean, its log
     * missing or damaged (SQLite would fall back to the last checkpoint without a word).
     *
     * @param ranBefore whether a sidecar created its database in this home before ({@link BatonHome#sidecarRanBefore},
     *                  read before this start)
     */
    public static Optional<Problem> damage(BatonHome home, boolean ranBefore) throws IOException {
        Path db = home.database();
        if (!Files.exists(db) || Files.size(db) == 0) {
            if (!ranBefore) {
                return Optional.empty(); // no sidecar ever ran here: an empty database is a new one
            }
            return Optional.of(lost(db, db + (Files.exists(db) ? " is empty (0 bytes)" : " is missing") + ", but a"
                    + " sidecar ran in " + home.dir() + " before (" + home.lockFile().getFileName() + " says so): every"
                    + " lock and session it held would be lost without a word"));
        }
        if (!startsWithSqliteHeader(db)) {
            return Optional.of(lost(db, db + " is not a SQLite database (its first bytes are garbled)"));
        }
        Optional<StateRecord.Recorded> recorded;
        Counts counts;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db.toUri() + "?immutable=1")) {
            recorded = StateRecord.read(connection);
            counts = Counts.of(connection);
        } catch (SQLException e) {
            recorded = Optional.empty();
            counts = null;
            if (!uncleanStop(home, recorded)) {
                // After a stop that was not clean the file may be mid-checkpoint; its log settles that below.
                return Optional.of(lost(db, db + " cannot be read (" + e.getMessage() + ")"));
            }
        }
        if (uncleanStop(home, recorded)) {
            return walDamage(home);
        }
        if (counts != null && !counts.hasAllTables() && (ranBefore || recorded.isPresent())) {
            return Optional.of(lost(db, db + " has lost its tables, but a sidecar ran in " + home.dir() + " before:"
                    + " every lock and session it held would be lost without a word"));
        }
        if (recorded.isPresent() && counts != null && counts.hasAllTables()) {
            StateRecord.Recorded at = recorded.get();
            List<String> fewer = new ArrayList<>();
            fewer(fewer, "lock", counts.locks(), at.locks());
            fewer(fewer, "named lock", counts.namedLocks(), at.namedLocks());
            fewer(fewer, "session", counts.sessions(), at.sessions());
            if (!fewer.isEmpty()) {
                return Optional.of(lost(db, db + " has lost rows since the sidecar stopped cleanly: it holds "
                        + String.join(", ", fewer) + " (it was changed by something other than Baton)"));
            }
        }
        return Optional.empty();
    }

    private static void fewer(List<String> out, String what, long now, long recorded) {
        if (now < recorded) {
            out.add(now + " " + what + (now == 1 ? "" : "s") + " where it had " + recorded);
        }
    }

    /**
     * The last sidecar did not reach a clean stop: the database says one is running (none is, the caller holds the
     * home's lock or no sidecar answers), or its {@code sidecar.pid} is left behind (a database of an older Baton).
     */
    private static boolean uncleanStop(BatonHome home, Optional<StateRecord.Recorded> recorded) {
        return recorded.map(StateRecord.Recorded::running).orElse(false) || Files.exists(home.pidFile());
    }

    private static Optional<Problem> walDamage(BatonHome home) throws IOException {
        Path wal = wal(home);
        Optional<WalFile.Index> index = WalFile.Index.read(shm(home));
        if (!Files.exists(wal)) {
            if (index.isPresent() && index.get().allCopied()) {
                return Optional.empty(); // every commit was already copied into the database: nothing is lost
            }
            return Optional.of(lost(wal, "the last sidecar in " + home.dir() + " did not stop cleanly (killed?), and "
                    + wal + ", which holds its last commits, is missing (deleted, or the database was opened by another"
                    + " program since): its latest locks would be lost without a word"));
        }
        return WalFile.damage(wal, index).map(what -> lost(wal, "the last sidecar in " + home.dir() + " did not stop"
                + " cleanly (killed?), and " + wal + ", which holds its last commits, is damaged: " + what + "; SQLite"
                + " would drop what it cannot read without a word"));
    }

    private static Problem lost(Path file, String what) {
        return new Problem(file, what, "Restore " + file.getFileName() + (file.getFileName().toString().endsWith("-wal")
                ? " with its database" : " and its -wal file") + " from a backup if you have one; to start with whatever"
                + " state is left (possibly none), run `baton serve " + ACCEPT_FLAG + "` once.");
    }

    private static boolean startsWithSqliteHeader(Path db) throws IOException {
        try (InputStream in = Files.newInputStream(db)) {
            return Arrays.equals(in.readNBytes(SQLITE_HEADER.length), SQLITE_HEADER);
        }
    }

    static Path wal(BatonHome home) {
        return home.dir().resolve(home.database().getFileName() + "-wal");
    }

    static Path shm(BatonHome home) {
        return home.dir().resolve(home.database().getFileName() + "-shm");
    }

    /** The rows in the database file as it stands; -1 for a table it does not have. */
    private record Counts(long sessions, long locks, long namedLocks) {
        boolean hasAllTables() {
            return sessions >= 0 && locks >= 0 && namedLocks >= 0;
        }

        static Counts of(Connection connection) throws SQLException {
            return new Counts(count(connection, "sessions"), count(connection, "locks"), count(connection, "named_locks"));
        }

        private static long count(Connection connection, String table) throws SQLException {
            if (!StateRecord.hasTable(connection, table)) {
                return -1;
            }
            try (Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table)) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }
}
