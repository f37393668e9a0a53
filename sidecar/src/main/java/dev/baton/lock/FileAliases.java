package dev.baton.lock;

import dev.baton.state.World;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The held files by device and inode, so that another path to a held file (a hard link, a bind mount) is known as
 * that file. An entry is a hint: it is believed only when the held file is still held and, asked again, still has
 * that identity, so an entry a failed transaction left, or one of a file replaced since (an editor that saves by
 * renaming a new file over the old one), does no harm. Built on first use from the held files, then kept as files are
 * taken and edited; used inside ledger transactions only, which run one at a time.
 */
final class FileAliases {

    private final Map<FileIdentity, Set<String>> held = new HashMap<>();
    private final Map<String, FileIdentity> identities = new HashMap<>();
    private boolean built;

    /** Records the identity {@code file} has now, if it exists. */
    synchronized void remember(String file) {
        FileIdentity.of(file).ifPresent(identity -> {
            FileIdentity before = identities.put(file, identity);
            if (before != null && !before.equals(identity)) {
                drop(before, file);
            }
            held.computeIfAbsent(identity, key -> new HashSet<>()).add(file);
        });
    }

    /** Forgets a file that is no longer held. */
    synchronized void forget(String file) {
        FileIdentity identity = identities.remove(file);
        if (identity != null) {
            drop(identity, file);
        }
    }

    private void drop(FileIdentity identity, String file) {
        Set<String> files = held.get(identity);
        if (files != null && files.remove(file) && files.isEmpty()) {
            held.remove(identity);
        }
    }

    /**
     * The lock of another held file that is the same file as {@code file} and that {@code foreign} accepts (held by
     * a session other than the caller's family), if any.
     */
    synchronized Optional<FileLock> heldAlias(World world, String file, Predicate<FileLock> foreign) {
        Optional<FileIdentity> identity = FileIdentity.of(file);
        if (identity.isEmpty()) {
            return Optional.empty();
        }
        if (!built) {
            world.rows(LockRows.FILES).forEach(lock -> remember(lock.file()));
            built = true;
        }
        Set<String> candidates = held.get(identity.get());
        if (candidates == null) {
            return Optional.empty();
        }
        for (String other : Set.copyOf(candidates)) {
            Optional<FileLock> lock = world.find(LockRows.FILES, other);
            if (lock.isEmpty() || !FileIdentity.of(other).equals(identity)) {
                forget(other); // released, or no longer that file
                continue;
            }
            if (!other.equals(file) && foreign.test(lock.get())) {
                return lock;
            }
        }
        return Optional.empty();
    }
}
