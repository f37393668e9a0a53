package dev.baton.git;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which files of a working tree changed since a moment, without walking the tree: the kernel reports each change
 * (inotify, through the JDK's {@link WatchService}) to a thread that numbers them as they come. A caller takes a
 * {@link Mark} before a command and asks for the paths changed since it afterwards; both first pass a barrier (a file
 * written in a directory of the same watch, whose event comes after every earlier one: one inotify queue keeps its
 * order), so no change made before the question is missed. Where the answer could be incomplete (the kernel's queue
 * overflowed, the watch limit was reached, the changes were pruned), there is none and the caller looks another way.
 */
public final class TreeWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TreeWatch.class);

    /** How long a barrier waits for its own event; far more than the watch thread ever takes on an idle machine. */
    private static final Duration BARRIER_WAIT = Duration.ofSeconds(2);
    /** Changes kept per tree; older ones go, and a mark from before them gets no answer. */
    private static final int KEPT_CHANGES = 200_000;
    /** Directories one tree may take; a larger tree is not watched (git's view is asked instead). */
    private static final int MAX_DIRECTORIES = 50_000;

    /** A moment in one tree's changes. */
    public record Mark(Path root, long sequence) {
    }

    private final WatchService service;
    private final Path barrierDir;
    private final Predicate<Path> watched;
    private final Map<WatchKey, Path> directories = new ConcurrentHashMap<>();
    private final Map<Path, Tree> trees = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> barriers = new ConcurrentHashMap<>();
    private final Thread reader;
    private long sequence; // guarded by this


    /**
     * @param privateDir a directory of Baton's own, made for this watch: it holds the barrier files, and goes with the
     *                   watch when it closes
     * @param watched whether a directory inside a tree is worth watching (not .git, not dependencies or build output)
     */
    public TreeWatch(Path privateDir, Predicate<Path> watched) throws IOException {
        this.service = FileSystems.getDefault().newWatchService();
        this.barrierDir = Files.createDirectories(privateDir);
        this.watched = watched;
        directories.put(barrierDir.register(service, StandardWatchEventKinds.ENTRY_CREATE), barrierDir);
        this.reader = new Thread(this::read, "baton-tree-watch");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * The moment now in the tree at {@code root}, which is watched from now on (its directories registered at the
     * first call); empty when it cannot be watched.
     */
    public Optional<Mark> mark(Path root) {
        Tree tree = trees.computeIfAbsent(root, Tree::new);
        synchronized (tree) {
            if (!tree.registered && !tree.unwatchable) {
                register(tree);
            }
            if (tree.unwatchable) {
                return Optional.empty();
            }
        }
        if (!barrier()) {
            return Optional.empty();
        }
        synchronized (this) {
            return Optional.of(new Mark(root, sequence));
        }
    }

    /** The paths (absolute) created, written, removed or renamed in the tree since {@code mark}; empty when unknown. */
    public Optional<Set<Path>> changedSince(Mark mark) {
        Tree tree = trees.get(mark.root());
        if (tree == null || !barrier()) {
            return Optional.empty();
        }
        synchronized (tree) {
            if (tree.unwatchable || tree.incompleteAfter > mark.sequence()) {
                return Optional.empty();
            }
            Set<Path> changed = new HashSet<>();
            for (Change change : tree.changes) {
                if (change.sequence > mark.sequence()) {
                    changed.add(change.path);
                }
            }
            return Optional.of(changed);
        }
    }

    private void register(Tree tree) {
        int[] count = {0};
        try {
            Files.walkFileTree(tree.root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    if (!dir.equals(tree.root) && !watched.test(dir)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    if (++count[0] > MAX_DIRECTORIES) {
                        throw new IOException("more than " + MAX_DIRECTORIES + " directories");
                    }
                    watch(dir);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // a directory that vanished or cannot be read: nothing to watch
                }
            });
            tree.registered = true;
        } catch (IOException e) {
            LOG.info("not watching {} ({}); git's view of it is asked instead", tree.root, e.getMessage());
            tree.unwatchable = true;
        }
    }

    private void watch(Path dir) throws IOException {
        WatchKey key = dir.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                StandardWatchEventKinds.ENTRY_MODIFY);
        directories.put(key, dir);
    }

    /** Writes a file of the barrier directory and waits until the reader has seen its event and all before it. */
    private boolean barrier() {
        String name = UUID.randomUUID().toString();
        CountDownLatch seen = new CountDownLatch(1);
        barriers.put(name, seen);
        Path file = barrierDir.resolve(name);
        try {
            Files.createFile(file);
            return seen.await(BARRIER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            LOG.warn("tree watch barrier failed: {}", e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            barriers.remove(name);
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // left for the next start's cleanup
            }
        }
    }

    private void read() {
        try {
            while (true) {
                WatchKey key = service.take();
                Set<String> passed = new HashSet<>();
                process(key, passed);
                // A key taken earlier may have been queued again behind the barrier's: take every queued key before
                // saying that a barrier was passed.
                for (WatchKey next; (next = service.poll()) != null; ) {
                    process(next, passed);
                }
                passed.forEach(name -> {
                    CountDownLatch latch = barriers.get(name);
                    if (latch != null) {
                        latch.countDown();
                    }
                });
            }
        } catch (ClosedWatchServiceException | InterruptedException e) {
            // closed: the sidecar is stopping
        }
    }

    private void process(WatchKey key, Set<String> passed) {
        Path dir = directories.get(key);
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
                LOG.info("the kernel dropped file change events; the checks of commands running now ask git instead");
                long now;
                synchronized (this) {
                    now = ++sequence;
                }
                // A directory made meanwhile may not be watched: each tree is walked again at its next mark.
                for (Tree tree : trees.values()) {
                    synchronized (tree) {
                        tree.incompleteAfter = Math.max(tree.incompleteAfter, now);
                        tree.registered = false;
                    }
                }
                continue;
            }
            if (dir == null) {
                continue;
            }
            Path path = dir.resolve((Path) event.context());
            if (dir.equals(barrierDir)) {
                passed.add(path.getFileName().toString());
                continue;
            }
            record(path);
            if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
                    && watched.test(path)) {
                watchNew(path);
            }
        }
        if (!key.reset()) {
            directories.remove(key);
        }
    }

    /** A directory made after the tree was registered: watched now, and what it already holds counts as changed. */
    private void watchNew(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path sub, BasicFileAttributes attrs) throws IOException {
                    if (!sub.equals(dir) && !watched.test(sub)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    watch(sub);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    record(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            LOG.info("cannot watch the new directory {} ({}); git's view of its tree is asked instead", dir, e.getMessage());
            treeOf(dir).ifPresent(tree -> {
                synchronized (tree) {
                    tree.unwatchable = true;
                }
            });
        }
    }

    private void record(Path path) {
        Optional<Tree> found = treeOf(path);
        if (found.isEmpty()) {
            return;
        }
        Tree tree = found.get();
        long number;
        synchronized (this) {
            number = ++sequence;
        }
        synchronized (tree) {
            tree.changes.addLast(new Change(number, path));
            if (tree.changes.size() > KEPT_CHANGES) {
                tree.incompleteAfter = Math.max(tree.incompleteAfter, tree.changes.removeFirst().sequence);
            }
        }
    }

    private Optional<Tree> treeOf(Path path) {
        for (Path at = path; at != null; at = at.getParent()) {
            Tree tree = trees.get(at);
            if (tree != null) {
                return Optional.of(tree);
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            LOG.debug("closing the tree watch: {}", e.getMessage());
        }
        reader.interrupt();
        try (var files = Files.list(barrierDir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(barrierDir);
        } catch (IOException e) {
            LOG.debug("removing {}: {}", barrierDir, e.getMessage());
        }
    }

    private record Change(long sequence, Path path) {
    }

    /** One watched working tree and its numbered changes. */
    private static final class Tree {
        final Path root;
        final Deque<Change> changes = new ArrayDeque<>();
        boolean registered;
        boolean unwatchable;
        /** Changes up to this number may be missing (pruned, or a directory that could not be watched). */
        long incompleteAfter = -1;

        Tree(Path root) {
            this.root = root;
        }
    }
}
