package dev.baton.lock;

import dev.baton.state.World;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The held files by repository and path, so that the same file held in another copy of its repository (a worktree,
 * a clone) is found without asking git. An entry is a hint, believed only while its file is still held: an entry a
 * failed transaction or a release left does no harm, and the sweeper forgets those of files no longer held (inside a
 * transaction: a listener after the commit could forget a file taken again since). Kept as files are taken; the files
 * held before a restart are named once, outside the ledger ({@link #unnamed}).
 */
final class CopyIndex {

    private record Key(String repository, String path) {
    }

    private final Map<Key, Set<String>> byPath = new HashMap<>();
    private final Map<String, FileCopy> copies = new HashMap<>();
    private volatile boolean built;

    synchronized void remember(String file, FileCopy copy) {
        FileCopy before = copies.put(file, copy);
        if (before != null) {
            drop(before, file);
        }
        byPath.computeIfAbsent(new Key(copy.repository(), copy.path()), key -> new HashSet<>()).add(file);
    }

    synchronized void forget(String file) {
        FileCopy copy = copies.remove(file);
        if (copy != null) {
            drop(copy, file);
        }
    }

    private void drop(FileCopy copy, String file) {
        Key key = new Key(copy.repository(), copy.path());
        Set<String> files = byPath.get(key);
        if (files != null && files.remove(file) && files.isEmpty()) {
            byPath.remove(key);
        }
    }

    synchronized Optional<FileCopy> of(String file) {
        return Optional.ofNullable(copies.get(file));
    }

    /** The held files that are {@code copy}'s file in other copies of its repository, with their copies. */
    synchronized Map<String, FileCopy> otherCopies(World world, FileCopy copy) {
        Set<String> candidates = byPath.get(new Key(copy.repository(), copy.path()));
        Map<String, FileCopy> found = new HashMap<>();
        if (candidates == null) {
            return found;
        }
        for (String other : Set.copyOf(candidates)) {
            if (world.find(LockRows.FILES, other).isEmpty()) {
                forget(other);
                continue;
            }
            FileCopy theirs = copies.get(other);
            if (theirs.isAnotherCopyOf(copy)) {
                found.put(other, theirs);
            }
        }
        return found;
    }

    /** Every held file with its copy, by copy; files of no repository are left out. */
    synchronized Map<String, FileCopy> all() {
        return Map.copyOf(copies);
    }

    /** Whether the files held before this sidecar started are named yet. */
    boolean built() {
        return built;
    }

    /** Of the held files, those not named yet (before the first naming, every one). */
    synchronized List<String> unnamed(World world) {
        List<String> files = new ArrayList<>();
        world.rows(LockRows.FILES).forEach(lock -> {
            if (!copies.containsKey(lock.file())) {
                files.add(lock.file());
            }
        });
        return files;
    }

    void markBuilt() {
        built = true;
    }
}
