package dev.baton.version;

import dev.baton.lock.FileLock;
import dev.baton.lock.HeldMessage;
import dev.baton.lock.LockRows;
import dev.baton.session.Session;
import dev.baton.session.SessionRows;
import dev.baton.state.BatonException;
import dev.baton.state.ErrorCode;
import dev.baton.state.Ledger;
import dev.baton.state.Transaction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versions of held files Baton can always put back: each time a holder's edit of its file ends, and when it
 * first takes a file that exists, the file's content is kept ({@link VersionStore}) and recorded as the holder's
 * last version of it ({@link VersionRows#KEPT}). When another session changes, replaces or removes the file, the
 * holder is offered {@code baton restore FILE}, which writes the kept bytes back.
 */
public final class Versions {

    public static final String KEPT = "version-kept";
    public static final String NOT_KEPT = "version-not-kept";
    public static final String OFFERED = "restore-offered";
    public static final String RESTORED = "version-restored";

    private static final Logger LOG = LoggerFactory.getLogger(Versions.class);
    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

    /** A version put back: the file, the content's hash and size, whose command's change it undid. */
    public record Restored(String file, String hash, long size, String sessionId, String changedBy) {
    }

    private final Ledger ledger;
    private final VersionStore store;
    private final Map<String, List<String>> notices = new HashMap<>();

    public Versions(Ledger ledger, VersionStore store) {
        this.ledger = ledger;
        this.store = store;
    }

    public VersionSettings bounds() {
        return store.bounds();
    }

    /** The command that puts {@code shownFile}'s last kept version back. */
    public static String restoreCommand(String shownFile) {
        return "baton restore " + HeldMessage.quoted(shownFile);
    }

    /** The holder's edit of {@code files} ended: each one it holds is kept as its last version. */
    public void keep(String sessionId, Collection<String> files) {
        files.forEach(file -> keepOne(sessionId, file, false));
    }

    /**
     * {@code sessionId} has just taken {@code files}: each one that exists is kept as what its edits start from,
     * unless a version of this session's since it took the file is kept already (which is its own work).
     */
    public void keepBase(String sessionId, Collection<String> files) {
        files.forEach(file -> keepOne(sessionId, file, true));
    }

    public Optional<KeptVersion> last(String file) {
        return ledger.read(world -> world.find(VersionRows.KEPT, file));
    }

    /**
     * {@code writer} changed, replaced or removed {@code file}, which {@code holder} holds: recorded with the version
     * to restore (audit {@value #OFFERED}). Empty when none of the holder's is kept.
     */
    public Optional<KeptVersion> changedBehind(Transaction tx, String file, String holder, String writer) {
        Optional<KeptVersion> last = tx.world().find(VersionRows.KEPT, file)
                .filter(version -> version.kept() && sameWork(tx, version.sessionId(), holder));
        last.ifPresent(version -> {
            tx.put(VersionRows.KEPT, version.changedBy(writer, tx.now()));
            tx.audit(OFFERED, holder, file, "sha256 " + version.hash(), writer);
        });
        return last;
    }

    /**
     * Writes {@code file}'s last kept version back, whole (a new file renamed over it), with the permission bits it
     * had. {@code sessionId} is the caller's session, null for the supervisor; a session may restore its own version
     * (or its subagent's) of a file no other session holds.
     */
    public Restored restore(String file, String sessionId, String actor) {
        KeptVersion version = last(file).orElseThrow(() -> BatonException.notFound("Baton kept no version of "
                + file + ": it keeps one when a holder's edit of it ends or a holder takes it"));
        if (!version.kept()) {
            throw BatonException.notFound("no version of " + file + " was kept: it was " + version.size()
                    + " bytes, over the limit of " + bounds().maxFileBytes() + " (BATON_VERSION_MAX_FILE)");
        }
        // Checked and written in one transaction, so no session takes the file between the check and the write.
        Restored restored = ledger.write(tx -> {
            if (sessionId != null) {
                mayRestore(tx, version, sessionId);
            }
            byte[] content;
            try {
                content = store.read(version.hash()).orElseThrow(() -> BatonException.notFound("the version of " + file
                        + " kept at " + version.keptAt() + " is no longer kept: versions not kept again within "
                        + bounds().maxAge() + " (BATON_VERSIONS_MAX_AGE), and the oldest beyond "
                        + bounds().maxTotalBytes() + " bytes (BATON_VERSIONS_MAX_TOTAL), are dropped"));
                writeBack(Path.of(file), content, version.mode());
            } catch (IOException e) {
                throw new BatonException(ErrorCode.CONFLICT, "could not write " + file + " back: " + e.getMessage());
            }
            tx.world().find(VersionRows.KEPT, file).filter(now -> version.hash().equals(now.hash()))
                    .ifPresent(now -> tx.put(VersionRows.KEPT, now.restored()));
            tx.audit(RESTORED, version.sessionId(), file, "sha256 " + version.hash(), sessionId != null ? sessionId : actor);
            return new Restored(file, version.hash(), content.length, version.sessionId(), version.changedBy());
        });
        if (version.changedBy() != null && !version.changedBy().equals(sessionId)) {
            told(version.changedBy(), "Baton: " + file + ", which session " + HeldMessage.shortId(version.sessionId())
                    + " holds, was put back to its last version by " + (sessionId != null ? "its holder" : actor)
                    + "; your command's change to it is undone. Ask for the file before you change it"
                    + " (`baton negotiate " + HeldMessage.quoted(file) + " --reason \"…\"`).");
        }
        return restored;
    }

    /** A session may put back its own version (or its subagent's) of a file no other session holds. */
    private static void mayRestore(Transaction tx, KeptVersion version, String sessionId) {
        String file = version.file();
        if (!sameWork(tx.world().find(SessionRows.SESSIONS, version.sessionId()), sessionId, version.sessionId())) {
            throw new BatonException(ErrorCode.FORBIDDEN, "the kept version of " + file + " is session "
                    + HeldMessage.shortId(version.sessionId()) + "'s; only that session, or the supervisor"
                    + " (`baton restore FILE --supervisor`), puts it back");
        }
        Optional<FileLock> lock = tx.world().find(LockRows.FILES, file);
        if (lock.isPresent() && !lock.get().sessionId().equals(sessionId)
                && !lock.get().sessionId().equals(version.sessionId())) {
            throw new BatonException(ErrorCode.LOCK_HELD, file + " is held by session "
                    + HeldMessage.shortId(lock.get().sessionId()) + " now; putting your version back would"
                    + " overwrite its work. Ask for it first (`baton negotiate " + HeldMessage.quoted(file)
                    + " --reason \"…\"`)");
        }
    }

    /** Drops the versions past their age, and the records of contents no longer kept; how many contents went. */
    public int prune() {
        try {
            Set<String> dropped = store.prune(ledger.clock().instant());
            forget(dropped);
            Instant oldest = ledger.clock().instant().minus(bounds().maxAge());
            ledger.write(tx -> {
                // A file too large to keep has a record with no content: it goes by its age alone.
                tx.world().rows(VersionRows.KEPT).stream()
                        .filter(version -> !version.kept() && version.keptAt().isBefore(oldest)).toList()
                        .forEach(version -> tx.remove(VersionRows.KEPT, version.file()));
                return null;
            });
            return dropped.size();
        } catch (IOException e) {
            LOG.warn("pruning kept versions failed: {}", e.getMessage());
            return 0;
        }
    }

    /** What a session whose command's change was undone should read on its next hook call. */
    public List<String> takeNotices(String sessionId) {
        synchronized (notices) {
            List<String> lines = notices.remove(sessionId);
            return lines == null ? List.of() : lines;
        }
    }

    private void told(String sessionId, String line) {
        synchronized (notices) {
            notices.computeIfAbsent(sessionId, id -> new ArrayList<>()).add(line);
        }
    }

    private void keepOne(String sessionId, String file, boolean base) {
        if (!store.keeps()) {
            return;
        }
        boolean wanted = ledger.read(world -> {
            Optional<FileLock> lock = world.find(LockRows.FILES, file).filter(held -> held.sessionId().equals(sessionId));
            if (lock.isEmpty()) {
                return false; // not its file (any more): nothing of its to keep
            }
            Optional<KeptVersion> last = world.find(VersionRows.KEPT, file);
            boolean ownSinceTaken = last.isPresent() && last.get().sessionId().equals(sessionId)
                    && !last.get().keptAt().isBefore(lock.get().acquiredAt());
            return !(base && ownSinceTaken);
        });
        if (!wanted) {
            return;
        }
        Path path = Path.of(file);
        try {
            PosixFileAttributes attributes;
            try {
                attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return; // a file still to be written: nothing to keep yet
            }
            if (!attributes.isRegularFile()) {
                return;
            }
            int mode = mode(attributes.permissions());
            if (attributes.size() > bounds().maxFileBytes()) {
                record(sessionId, file, null, attributes.size(), mode);
                return;
            }
            byte[] content = Files.readAllBytes(path);
            if (content.length > bounds().maxFileBytes()) {
                record(sessionId, file, null, content.length, mode);
                return;
            }
            VersionStore.Put put = store.put(content, ledger.clock().instant());
            forget(put.dropped());
            record(sessionId, file, put.hash(), content.length, mode);
        } catch (IOException e) {
            LOG.info("no version of {} kept for session {}: {}", file, sessionId, e.getMessage());
        }
    }

    /** Records the session's last version; audited when its content (or whose it is) is new. */
    private void record(String sessionId, String file, String hash, long size, int mode) {
        ledger.write(tx -> {
            Optional<FileLock> lock = tx.world().find(LockRows.FILES, file).filter(held -> held.sessionId().equals(sessionId));
            if (lock.isEmpty()) {
                return null; // released meanwhile
            }
            Optional<KeptVersion> last = tx.world().find(VersionRows.KEPT, file);
            boolean same = last.isPresent() && sessionId.equals(last.get().sessionId())
                    && Objects.equals(hash, last.get().hash()) && last.get().changedBy() == null
                    && (hash != null || last.get().size() == size);
            if (same && !last.get().keptAt().isBefore(lock.get().acquiredAt())) {
                return null; // nothing new: no write on every edit of an unchanged file
            }
            tx.put(VersionRows.KEPT, new KeptVersion(file, sessionId, hash, size, mode, tx.now(), null, null));
            if (!same) {
                if (hash == null) {
                    tx.audit(NOT_KEPT, sessionId, file, size + " bytes, over the limit of " + bounds().maxFileBytes()
                            + " (BATON_VERSION_MAX_FILE)", null);
                } else {
                    tx.audit(KEPT, sessionId, file, "sha256 " + hash + ", " + size + " bytes", null);
                }
            }
            return null;
        });
    }

    /** Removes the records of contents the store no longer has. */
    private void forget(Set<String> dropped) {
        if (dropped.isEmpty()) {
            return;
        }
        ledger.write(tx -> {
            tx.world().rows(VersionRows.KEPT).stream().filter(version -> dropped.contains(version.hash())).toList()
                    .forEach(version -> tx.remove(VersionRows.KEPT, version.file()));
            return null;
        });
    }

    /** Whether {@code caller} speaks for {@code owner}'s work: it is that session, or its parent. */
    private static boolean sameWork(Optional<Session> owner, String caller, String ownerId) {
        return ownerId.equals(caller) || owner.map(session -> caller.equals(session.parentId())).orElse(false);
    }

    private static boolean sameWork(Transaction tx, String owner, String holder) {
        return sameWork(tx.world().find(SessionRows.SESSIONS, owner), holder, owner)
                || sameWork(tx.world().find(SessionRows.SESSIONS, holder), owner, holder);
    }

    /** A new file beside {@code target}, renamed over it: a reader sees the old content or the whole new one. */
    private static void writeBack(Path target, byte[] content, int mode) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temporary = Files.createTempFile(dir, "." + target.getFileName() + ".baton-restore-", "",
                PosixFilePermissions.asFileAttribute(permissions(mode)));
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.setPosixFilePermissions(temporary, permissions(mode)); // the umask narrowed the creation's bits
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    static int mode(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (int bit = 0; bit < BITS.length; bit++) {
            if (permissions.contains(BITS[bit])) {
                mode |= 1 << bit;
            }
        }
        return mode;
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < BITS.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(BITS[bit]);
            }
        }
        return permissions;
    }
}
